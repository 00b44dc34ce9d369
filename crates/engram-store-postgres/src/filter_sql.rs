//! Compiling the metadata filter language to PostgreSQL SQL over the
//! `jsonb` `metadata` column, with exactly the semantics of
//! [`engram_core::filter::Filter::matches`] (checked by the conformance
//! suite). Case folding is ASCII-only, as the language specifies, so it is
//! written with `translate` rather than `lower` (which folds by locale).
//! Every branch that casts a JSON value sits under a `CASE` on its type, so
//! no row can make the query fail. Keys and values are always bound.

use crate::rows::{Bind, Binds};
use engram_core::filter::{Condition, Filter, FilterKind};

const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";

/// The SQL for `f` (over the documents alias `d`).
pub fn compile(f: &Filter, binds: &mut Binds) -> String {
    match f {
        Filter::And(items) => group(items, " AND ", binds),
        Filter::Or(items) => group(items, " OR ", binds),
        Filter::Cond(c) => condition(c, binds),
    }
}

fn group(items: &[Filter], sep: &str, binds: &mut Binds) -> String {
    let parts: Vec<String> = items.iter().map(|i| compile(i, binds)).collect();
    format!("({})", parts.join(sep))
}

fn fold(expr: &str, ignore_case: bool) -> String {
    if ignore_case {
        format!("translate({expr}, '{UPPER}', '{LOWER}')")
    } else {
        expr.to_string()
    }
}

fn condition(c: &Condition, binds: &mut Binds) -> String {
    let key = binds.text(c.key.clone());
    let v = format!("(d.metadata -> {key})");
    let ty = format!("jsonb_typeof({v})");
    let text = fold(&format!("({v} #>> '{{}}')"), c.ignore_case);
    let want = if c.ignore_case {
        c.value.to_ascii_lowercase()
    } else {
        c.value.clone()
    };
    let base = match c.kind {
        FilterKind::Metadata => {
            let s = binds.text(want);
            let num = match c.numeric_value() {
                Some(n) => format!("({v})::float8 = {}", binds.arg(Bind::Real(n))),
                None => "false".into(),
            };
            let t = c.value == "true";
            let f = c.value == "false";
            format!(
                "CASE {ty} WHEN 'string' THEN {text} = {s} WHEN 'number' THEN {num} \
                 WHEN 'boolean' THEN CASE WHEN ({v})::boolean THEN {t} ELSE {f} END ELSE false END"
            )
        }
        FilterKind::Numeric => match c.numeric_value() {
            Some(n) => format!(
                "CASE WHEN {ty} = 'number' THEN ({v})::float8 {} {} ELSE false END",
                c.op.as_sql(),
                binds.arg(Bind::Real(n))
            ),
            None => "false".into(),
        },
        FilterKind::ArrayContains => {
            let s = binds.text(want);
            let elem = fold("(e #>> '{}')", c.ignore_case);
            format!(
                "CASE WHEN {ty} = 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements({v}) e \
                 WHERE jsonb_typeof(e) = 'string' AND {elem} = {s}) ELSE false END"
            )
        }
        FilterKind::StringContains => {
            let s = binds.text(want);
            format!("CASE WHEN {ty} = 'string' THEN strpos({text}, {s}) > 0 ELSE false END")
        }
    };
    if c.negate {
        format!("(NOT COALESCE(({base}), false))")
    } else {
        format!("COALESCE(({base}), false)")
    }
}
