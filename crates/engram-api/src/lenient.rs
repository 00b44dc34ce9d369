//! Deserializers for the lenient inputs the public API accepts: numbers sent
//! as numeric strings, and booleans sent as `"true"`/`"false"`.

use serde::de::{self, Deserializer};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(untagged)]
enum NumOrString {
    Num(serde_json::Number),
    Str(String),
}

/// An optional non-negative integer given as a JSON number or a string of
/// digits.
pub fn opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v: Option<NumOrString> = Option::deserialize(d)?;
    match v {
        None => Ok(None),
        Some(NumOrString::Num(n)) => n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            })
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("expected a non-negative integer, got {n}"))),
        Some(NumOrString::Str(s)) => s.trim().parse::<u64>().map(Some).map_err(|_| {
            de::Error::custom(format!("expected a non-negative integer, got \"{s}\""))
        }),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum BoolOrString {
    Bool(bool),
    Str(String),
}

/// An optional boolean given as a JSON boolean or `"true"`/`"false"`.
pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let v: Option<BoolOrString> = Option::deserialize(d)?;
    match v {
        None => Ok(None),
        Some(BoolOrString::Bool(b)) => Ok(Some(b)),
        Some(BoolOrString::Str(s)) => match s.as_str() {
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            _ => Err(de::Error::custom(format!(
                "expected a boolean or \"true\"/\"false\", got \"{s}\""
            ))),
        },
    }
}
