//! Compiling the metadata filter language to SQLite SQL over the JSON
//! `metadata` column, with exactly the semantics of
//! [`engram_core::filter::Filter::matches`] (checked by the conformance
//! suite). `lower()` in SQLite folds ASCII only, as the language specifies.
//!
//! Values are always bound. The JSON path is written into the SQL as a
//! literal: keys are restricted to `[a-zA-Z0-9_.-]` by the parser, and a key
//! with any other character compiles to "no match" rather than to SQL.

use engram_core::filter::{Condition, Filter, FilterKind};

/// A value bound to a `?` placeholder.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    Text(String),
    Real(f64),
    Int(i64),
}

type Sqlite = sqlx::Sqlite;
type Args = <Sqlite as sqlx::Database>::Arguments;

impl Bind {
    /// Bind to a query.
    pub fn bind<'q>(
        &self,
        q: sqlx::query::Query<'q, Sqlite, Args>,
    ) -> sqlx::query::Query<'q, Sqlite, Args> {
        match self {
            Bind::Text(t) => q.bind(t.clone()),
            Bind::Real(r) => q.bind(*r),
            Bind::Int(i) => q.bind(*i),
        }
    }

    /// Bind to a scalar query.
    pub fn bind_scalar<'q, O>(
        &self,
        q: sqlx::query::QueryScalar<'q, Sqlite, O, Args>,
    ) -> sqlx::query::QueryScalar<'q, Sqlite, O, Args> {
        match self {
            Bind::Text(t) => q.bind(t.clone()),
            Bind::Real(r) => q.bind(*r),
            Bind::Int(i) => q.bind(*i),
        }
    }
}

/// The SQL for `f` (over the documents alias `d`); binds are appended in
/// placeholder order.
pub fn compile(f: &Filter, binds: &mut Vec<Bind>) -> String {
    match f {
        Filter::And(items) => group(items, " AND ", binds),
        Filter::Or(items) => group(items, " OR ", binds),
        Filter::Cond(c) => condition(c, binds),
    }
}

fn group(items: &[Filter], sep: &str, binds: &mut Vec<Bind>) -> String {
    let parts: Vec<String> = items.iter().map(|i| compile(i, binds)).collect();
    format!("({})", parts.join(sep))
}

fn safe_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

fn condition(c: &Condition, binds: &mut Vec<Bind>) -> String {
    let base = if !safe_key(&c.key) {
        "0".to_string()
    } else {
        let ty = format!("json_type(d.metadata, '$.\"{}\"')", c.key);
        let val = format!("json_extract(d.metadata, '$.\"{}\"')", c.key);
        let (lhs, v) = if c.ignore_case {
            (format!("lower({val})"), c.value.to_ascii_lowercase())
        } else {
            (val.clone(), c.value.clone())
        };
        match c.kind {
            FilterKind::Metadata => {
                // placeholders in text order: the string, then the number
                // twice (integer and real branches)
                binds.push(Bind::Text(v));
                let num = match c.numeric_value() {
                    Some(n) => {
                        binds.push(Bind::Real(n));
                        binds.push(Bind::Real(n));
                        format!("{val} = ?")
                    }
                    None => "0".into(),
                };
                let t = i32::from(c.value == "true");
                let f = i32::from(c.value == "false");
                format!(
                    "CASE {ty} WHEN 'text' THEN {lhs} = ? WHEN 'integer' THEN {num} WHEN 'real' THEN {num} \
                     WHEN 'true' THEN {t} WHEN 'false' THEN {f} ELSE 0 END"
                )
            }
            FilterKind::Numeric => {
                binds.push(Bind::Real(c.numeric_value().unwrap_or(f64::NAN)));
                format!("{ty} IN ('integer', 'real') AND {val} {} ?", c.op.as_sql())
            }
            FilterKind::ArrayContains => {
                let elem = if c.ignore_case {
                    "lower(je.value)"
                } else {
                    "je.value"
                };
                binds.push(Bind::Text(v));
                format!(
                    "{ty} = 'array' AND EXISTS (SELECT 1 FROM json_each(d.metadata, '$.\"{}\"') je \
                     WHERE je.type = 'text' AND {elem} = ?)",
                    c.key
                )
            }
            FilterKind::StringContains => {
                binds.push(Bind::Text(v));
                format!("{ty} = 'text' AND instr({lhs}, ?) > 0")
            }
        }
    };
    if c.negate {
        format!("(NOT COALESCE(({base}), 0))")
    } else {
        format!("COALESCE(({base}), 0)")
    }
}
