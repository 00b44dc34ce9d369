//! The metadata filter language (seed section 2.4): parsing into a typed
//! AST, and an in-memory evaluator that defines the semantics every store's
//! compiled query must reproduce.
//!
//! A filter is a JSON object (or a JSON string holding one): groups
//! `{"AND": [...]}` / `{"OR": [...]}` nesting conditions and groups, at most
//! [`MAX_DEPTH`] levels and [`MAX_CONDITIONS`] conditions. A condition:
//!
//! | field | meaning |
//! |---|---|
//! | `key` | metadata key (`[a-zA-Z0-9_.-]`, at most 64 characters) |
//! | `value` | a string (numbers and booleans are accepted and stringified) |
//! | `filterType` | `metadata` (equality, default), `numeric`, `array_contains`, `string_contains` |
//! | `numericOperator` | `>`, `<`, `>=`, `<=`, `=` (default `=`) |
//! | `negate`, `ignoreCase` | boolean or `"true"`/`"false"` |
//!
//! Semantics, per condition on metadata value `m = metadata[key]`:
//! - `metadata`: `m` is a string equal to the value; or a number equal to the
//!   value read as a number; or a boolean whose `true`/`false` spelling is the
//!   value. Arrays never match (use `array_contains`).
//! - `numeric`: `m` is a number and `m op value` (the value must be a number).
//! - `array_contains`: `m` is an array holding a string equal to the value.
//! - `string_contains`: `m` is a string containing the value.
//! - `ignoreCase` folds ASCII letters on both sides (string comparisons only).
//! - `negate` inverts the result. A missing key never matches, so it matches
//!   under `negate`; for a numeric value `negate` amounts to flipping the
//!   operator (`>` becomes `<=`).

use crate::error::ValidationError;
use crate::model::Metadata;
use serde_json::Value;

/// Deepest allowed nesting of groups.
pub const MAX_DEPTH: usize = 8;
/// Most conditions in one filter.
pub const MAX_CONDITIONS: usize = 200;

/// A parsed filter.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Cond(Condition),
}

/// One condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub key: String,
    pub value: String,
    pub kind: FilterKind,
    pub op: NumOp,
    pub negate: bool,
    pub ignore_case: bool,
}

/// `filterType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    Metadata,
    Numeric,
    ArrayContains,
    StringContains,
}

/// `numericOperator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumOp {
    Gt,
    Lt,
    Ge,
    Le,
    Eq,
}

impl NumOp {
    pub fn as_sql(self) -> &'static str {
        match self {
            NumOp::Gt => ">",
            NumOp::Lt => "<",
            NumOp::Ge => ">=",
            NumOp::Le => "<=",
            NumOp::Eq => "=",
        }
    }

    pub fn apply(self, a: f64, b: f64) -> bool {
        match self {
            NumOp::Gt => a > b,
            NumOp::Lt => a < b,
            NumOp::Ge => a >= b,
            NumOp::Le => a <= b,
            NumOp::Eq => a == b,
        }
    }
}

impl Condition {
    /// The value as a number, when it is one (finite).
    pub fn numeric_value(&self) -> Option<f64> {
        self.value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
    }

    /// The un-negated test against metadata.
    pub fn base_matches(&self, meta: &Metadata) -> bool {
        let Some(m) = meta.get(&self.key) else {
            return false;
        };
        let eq = |s: &str| {
            if self.ignore_case {
                s.eq_ignore_ascii_case(&self.value)
            } else {
                s == self.value
            }
        };
        match self.kind {
            FilterKind::Metadata => match m {
                Value::String(s) => eq(s),
                Value::Number(n) => match (n.as_f64(), self.numeric_value()) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                },
                Value::Bool(b) => self.value == if *b { "true" } else { "false" },
                _ => false,
            },
            FilterKind::Numeric => match (m.as_f64(), self.numeric_value()) {
                (Some(a), Some(b)) if m.is_number() => self.op.apply(a, b),
                _ => false,
            },
            FilterKind::ArrayContains => match m {
                Value::Array(items) => items.iter().any(|i| i.as_str().is_some_and(eq)),
                _ => false,
            },
            FilterKind::StringContains => match m {
                Value::String(s) => {
                    if self.ignore_case {
                        s.to_ascii_lowercase()
                            .contains(&self.value.to_ascii_lowercase())
                    } else {
                        s.contains(&self.value)
                    }
                }
                _ => false,
            },
        }
    }

    pub fn matches(&self, meta: &Metadata) -> bool {
        self.base_matches(meta) != self.negate
    }
}

impl Filter {
    /// Evaluate against a document's metadata.
    pub fn matches(&self, meta: &Metadata) -> bool {
        match self {
            Filter::And(items) => items.iter().all(|f| f.matches(meta)),
            Filter::Or(items) => items.iter().any(|f| f.matches(meta)),
            Filter::Cond(c) => c.matches(meta),
        }
    }

    /// Number of conditions.
    pub fn conditions(&self) -> usize {
        match self {
            Filter::And(items) | Filter::Or(items) => items.iter().map(Filter::conditions).sum(),
            Filter::Cond(_) => 1,
        }
    }
}

/// Parse a filter given as a JSON object or a JSON string holding one.
/// Errors name the path of the bad node under `field` (e.g.
/// `filters.AND[1].numericOperator`).
pub fn parse(field: &str, v: &Value) -> Result<Filter, ValidationError> {
    let owned;
    let v = match v {
        Value::String(s) => {
            owned = serde_json::from_str::<Value>(s)
                .map_err(|e| ValidationError::new(field, format!("not a JSON filter: {e}")))?;
            &owned
        }
        other => other,
    };
    let mut count = 0;
    let f = node(field, v, 1, &mut count)?;
    Ok(f)
}

fn node(path: &str, v: &Value, depth: usize, count: &mut usize) -> Result<Filter, ValidationError> {
    let obj = v.as_object().ok_or_else(|| {
        ValidationError::new(path, "must be an object: a condition or an AND/OR group")
    })?;
    let group = match (obj.get("AND"), obj.get("OR")) {
        (Some(_), Some(_)) => {
            return Err(ValidationError::new(
                path,
                "a group has either AND or OR, not both",
            ))
        }
        (Some(items), None) => Some(("AND", items)),
        (None, Some(items)) => Some(("OR", items)),
        (None, None) => None,
    };
    let Some((name, items)) = group else {
        *count += 1;
        if *count > MAX_CONDITIONS {
            return Err(ValidationError::new(
                path,
                format!("a filter holds at most {MAX_CONDITIONS} conditions"),
            ));
        }
        return condition(path, obj).map(Filter::Cond);
    };
    if depth > MAX_DEPTH {
        return Err(ValidationError::new(
            path,
            format!("groups nest at most {MAX_DEPTH} levels deep"),
        ));
    }
    let here = format!("{path}.{name}");
    let items = items
        .as_array()
        .ok_or_else(|| ValidationError::new(&here, "must be an array"))?;
    if items.is_empty() {
        return Err(ValidationError::new(
            &here,
            "must hold at least one condition or group",
        ));
    }
    let parsed = items
        .iter()
        .enumerate()
        .map(|(i, item)| node(&format!("{here}[{i}]"), item, depth + 1, count))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(if name == "AND" {
        Filter::And(parsed)
    } else {
        Filter::Or(parsed)
    })
}

fn flag(path: &str, name: &str, v: Option<&Value>) -> Result<bool, ValidationError> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" => Ok(true),
        Some(Value::String(s)) if s == "false" => Ok(false),
        Some(_) => Err(ValidationError::new(
            format!("{path}.{name}"),
            "must be a boolean or \"true\"/\"false\"",
        )),
    }
}

fn condition(
    path: &str,
    obj: &serde_json::Map<String, Value>,
) -> Result<Condition, ValidationError> {
    let key = match obj.get("key") {
        Some(Value::String(k)) => k.clone(),
        Some(_) => {
            return Err(ValidationError::new(
                format!("{path}.key"),
                "must be a string",
            ))
        }
        None => return Err(ValidationError::new(format!("{path}.key"), "is required")),
    };
    if key.is_empty()
        || key.len() > crate::validate::MAX_METADATA_KEY_LEN
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        return Err(ValidationError::new(
            format!("{path}.key"),
            "must match ^[a-zA-Z0-9_.-]{1,64}$",
        ));
    }
    let value = match obj.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(_) => {
            return Err(ValidationError::new(
                format!("{path}.value"),
                "must be a string",
            ))
        }
        None => return Err(ValidationError::new(format!("{path}.value"), "is required")),
    };
    if value.chars().count() > crate::validate::MAX_METADATA_STRING_LEN {
        return Err(ValidationError::new(format!("{path}.value"), "is too long"));
    }
    let kind = match obj.get("filterType") {
        None | Some(Value::Null) => FilterKind::Metadata,
        Some(Value::String(s)) => match s.as_str() {
            "metadata" => FilterKind::Metadata,
            "numeric" => FilterKind::Numeric,
            "array_contains" => FilterKind::ArrayContains,
            "string_contains" => FilterKind::StringContains,
            other => {
                return Err(ValidationError::new(
                    format!("{path}.filterType"),
                    format!("unknown value `{other}`, expected one of: metadata, numeric, array_contains, string_contains"),
                ))
            }
        },
        Some(_) => return Err(ValidationError::new(format!("{path}.filterType"), "must be a string")),
    };
    let op = match obj.get("numericOperator") {
        None | Some(Value::Null) => NumOp::Eq,
        Some(Value::String(s)) => match s.as_str() {
            ">" => NumOp::Gt,
            "<" => NumOp::Lt,
            ">=" => NumOp::Ge,
            "<=" => NumOp::Le,
            "=" => NumOp::Eq,
            other => {
                return Err(ValidationError::new(
                    format!("{path}.numericOperator"),
                    format!("unknown operator `{other}`, expected one of: >, <, >=, <=, ="),
                ))
            }
        },
        Some(_) => {
            return Err(ValidationError::new(
                format!("{path}.numericOperator"),
                "must be a string",
            ))
        }
    };
    let c = Condition {
        key,
        value,
        kind,
        op,
        negate: flag(path, "negate", obj.get("negate"))?,
        ignore_case: flag(path, "ignoreCase", obj.get("ignoreCase"))?,
    };
    if kind == FilterKind::Numeric && c.numeric_value().is_none() {
        return Err(ValidationError::new(
            format!("{path}.value"),
            "must be a number for a numeric filter",
        ));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta() -> Metadata {
        json!({"group": "Jira_Users", "n": 5, "f": 2.5, "ok": true, "tags": ["a", "B"], "title": "Hello World"})
            .as_object()
            .unwrap()
            .clone()
    }

    fn check(filter: Value, want: bool) {
        let f = parse("filters", &filter).unwrap_or_else(|e| panic!("{filter}: {e}"));
        assert_eq!(f.matches(&meta()), want, "{filter}");
    }

    #[test]
    fn semantics() {
        check(
            json!({"AND": [{"key": "group", "value": "Jira_Users"}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "group", "value": "jira_users"}]}),
            false,
        );
        check(
            json!({"AND": [{"key": "group", "value": "jira_users", "ignoreCase": "true"}]}),
            true,
        );
        check(json!({"AND": [{"key": "n", "value": "5"}]}), true);
        check(json!({"AND": [{"key": "ok", "value": "true"}]}), true);
        check(json!({"AND": [{"key": "tags", "value": "a"}]}), false);
        check(
            json!({"AND": [{"key": "n", "value": "4", "filterType": "numeric", "numericOperator": ">"}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "n", "value": "5", "filterType": "numeric", "numericOperator": ">"}]}),
            false,
        );
        check(
            json!({"AND": [{"key": "n", "value": "5", "filterType": "numeric", "numericOperator": ">", "negate": true}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "f", "value": "2.5", "filterType": "numeric", "numericOperator": ">="}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "group", "value": "1", "filterType": "numeric"}]}),
            false,
        );
        check(
            json!({"AND": [{"key": "tags", "value": "b", "filterType": "array_contains"}]}),
            false,
        );
        check(
            json!({"AND": [{"key": "tags", "value": "b", "filterType": "array_contains", "ignoreCase": true}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "title", "value": "lo Wo", "filterType": "string_contains"}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "title", "value": "WORLD", "filterType": "string_contains", "ignoreCase": true}]}),
            true,
        );
        check(json!({"AND": [{"key": "missing", "value": "x"}]}), false);
        check(
            json!({"AND": [{"key": "missing", "value": "x", "negate": "true"}]}),
            true,
        );
        check(
            json!({"AND": [{"key": "missing", "value": "1", "filterType": "numeric", "negate": true}]}),
            true,
        );
        check(
            json!({"OR": [{"key": "missing", "value": "x"}, {"AND": [{"key": "n", "value": 5}]}]}),
            true,
        );
        check(
            json!("{\"AND\": [{\"key\": \"n\", \"value\": \"5\"}]}"),
            true,
        );
        check(json!({"key": "n", "value": "5"}), true);
    }

    #[test]
    fn errors_name_the_bad_node() {
        let cases = [
            (
                json!({"AND": [{"key": "a", "value": "1"}, {"OR": [{"key": "b"}]}]}),
                "filters.AND[1].OR[0].value",
            ),
            (
                json!({"AND": [{"key": "a", "value": "1", "numericOperator": "!="}]}),
                "filters.AND[0].numericOperator",
            ),
            (
                json!({"AND": [{"key": "a", "value": "x", "filterType": "numeric"}]}),
                "filters.AND[0].value",
            ),
            (
                json!({"AND": [{"key": "a", "value": "1", "filterType": "regex"}]}),
                "filters.AND[0].filterType",
            ),
            (
                json!({"AND": [{"key": "a", "value": "1", "negate": "yes"}]}),
                "filters.AND[0].negate",
            ),
            (
                json!({"AND": [{"key": "bad key", "value": "1"}]}),
                "filters.AND[0].key",
            ),
            (json!({"AND": []}), "filters.AND"),
            (json!({"AND": {"key": "a"}}), "filters.AND"),
            (json!({"AND": [1]}), "filters.AND[0]"),
            (json!({"AND": [], "OR": []}), "filters"),
            (json!("{not json"), "filters"),
            (json!([1]), "filters"),
            (
                json!({"AND": [{"key": "a", "value": {"x": 1}}]}),
                "filters.AND[0].value",
            ),
        ];
        for (v, path) in cases {
            let e = parse("filters", &v).unwrap_err();
            assert_eq!(e.field, path, "{v}: {e}");
        }
    }

    #[test]
    fn limits() {
        let mut v = json!({"key": "a", "value": "1"});
        for _ in 0..8 {
            v = json!({"AND": [v]});
        }
        assert!(parse("filters", &v).is_ok());
        let v = json!({"OR": [v]});
        assert!(parse("filters", &v)
            .unwrap_err()
            .message
            .contains("8 levels"));
        let many: Vec<Value> = (0..201)
            .map(|i| json!({"key": "a", "value": i.to_string()}))
            .collect();
        assert!(parse("filters", &json!({"OR": many}))
            .unwrap_err()
            .message
            .contains("200"));
        let ok: Vec<Value> = (0..200)
            .map(|i| json!({"key": "a", "value": i.to_string()}))
            .collect();
        assert_eq!(
            parse("filters", &json!({"OR": ok})).unwrap().conditions(),
            200
        );
    }

    fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
                .map(Value::Number)
                .unwrap_or(Value::Null)),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(
                &[
                    "key",
                    "value",
                    "AND",
                    "OR",
                    "filterType",
                    "numeric",
                    "negate",
                    "true",
                    ">",
                    ""
                ][..]
            )
            .prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(10, 200, 6, |inner| {
            let keys = prop::sample::select(
                &[
                    "key",
                    "value",
                    "AND",
                    "OR",
                    "filterType",
                    "numericOperator",
                    "negate",
                    "ignoreCase",
                    "x",
                ][..],
            );
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(keys, inner, 0..6).prop_map(|m| Value::Object(
                    m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                )),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn parser_never_panics_on_arbitrary_json(v in arbitrary_json()) {
            let _ = parse("filters", &v);
            let _ = parse("filters", &Value::String(v.to_string()));
        }

        #[test]
        fn parser_never_panics_on_arbitrary_strings(s in ".{0,200}") {
            let _ = parse("filters", &Value::String(s));
        }
    }
}
