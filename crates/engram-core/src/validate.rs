//! Input rules that hold for every route: container tags, custom ids,
//! metadata, file paths and free-text limits. Each check returns a
//! [`ValidationError`] naming the field it was given.

use crate::error::ValidationError;
use crate::model::Metadata;
use serde_json::Value;

/// Longest container tag (seed 2.1).
pub const MAX_TAG_LEN: usize = 100;
/// Longest custom id.
pub const MAX_CUSTOM_ID_LEN: usize = 100;
/// Longest metadata key.
pub const MAX_METADATA_KEY_LEN: usize = 64;
/// Most metadata keys on one document.
pub const MAX_METADATA_KEYS: usize = 128;
/// Longest metadata string value, in characters.
pub const MAX_METADATA_STRING_LEN: usize = 4096;
/// Most items in one metadata array value.
pub const MAX_METADATA_ARRAY_LEN: usize = 256;
/// Longest `entityContext`.
pub const MAX_ENTITY_CONTEXT_LEN: usize = 1500;
/// Longest `filepath`.
pub const MAX_FILEPATH_LEN: usize = 1024;
/// Largest text content accepted in a JSON body, in bytes.
pub const MAX_CONTENT_BYTES: usize = 8 * 1024 * 1024;

fn is_tag_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'-'
}

/// A container tag: 1..=100 characters of `[a-zA-Z0-9_:-]`.
pub fn container_tag(field: &str, tag: &str) -> Result<(), ValidationError> {
    if tag.is_empty() {
        return Err(ValidationError::new(field, "must not be empty"));
    }
    if tag.chars().count() > MAX_TAG_LEN {
        return Err(ValidationError::new(
            field,
            format!("must be at most {MAX_TAG_LEN} characters"),
        ));
    }
    if !tag.bytes().all(is_tag_char) {
        return Err(ValidationError::new(field, "must match ^[a-zA-Z0-9_:-]+$"));
    }
    Ok(())
}

/// Merge the singular `containerTag` and plural `containerTags` into one
/// de-duplicated list, validating each (fields named as the client sent them).
pub fn container_tags(
    single: Option<&str>,
    many: Option<&[String]>,
) -> Result<Vec<String>, ValidationError> {
    let mut out: Vec<String> = Vec::new();
    if let Some(t) = single {
        container_tag("containerTag", t)?;
        out.push(t.to_string());
    }
    if let Some(list) = many {
        for (i, t) in list.iter().enumerate() {
            container_tag(&format!("containerTags[{i}]"), t)?;
            if !out.iter().any(|x| x == t) {
                out.push(t.clone());
            }
        }
    }
    Ok(out)
}

/// The one space a write names, for routes that write into a single space
/// (memories): the singular `containerTag` wins when both are sent (the
/// plural is still validated); otherwise `containerTags` must hold exactly
/// one tag. `None` when neither is sent.
pub fn one_container_tag(
    single: Option<&str>,
    many: Option<&[String]>,
) -> Result<Option<String>, ValidationError> {
    let all = container_tags(single, many)?;
    if let Some(t) = single {
        return Ok(Some(t.to_string()));
    }
    match all.as_slice() {
        [] if many.is_some() => Err(ValidationError::new(
            "containerTags",
            "must hold one tag (or send `containerTag`)",
        )),
        [] => Ok(None),
        [t] => Ok(Some(t.clone())),
        _ => Err(ValidationError::new(
            "containerTags",
            "a memory belongs to one space: send one tag, as `containerTag`",
        )),
    }
}

/// A client-chosen document id: 1..=100 characters of `[a-zA-Z0-9_:.-]`.
pub fn custom_id(field: &str, id: &str) -> Result<(), ValidationError> {
    if id.is_empty() {
        return Err(ValidationError::new(field, "must not be empty"));
    }
    if id.chars().count() > MAX_CUSTOM_ID_LEN {
        return Err(ValidationError::new(
            field,
            format!("must be at most {MAX_CUSTOM_ID_LEN} characters"),
        ));
    }
    if !id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'-' | b'.'))
    {
        return Err(ValidationError::new(field, "must match ^[a-zA-Z0-9_:.-]+$"));
    }
    Ok(())
}

/// Flat metadata: keys of `[a-zA-Z0-9_.-]` (at most 64), values string,
/// finite number, boolean, or an array of strings. No nesting, no null.
pub fn metadata(field: &str, m: &Metadata) -> Result<(), ValidationError> {
    if m.len() > MAX_METADATA_KEYS {
        return Err(ValidationError::new(
            field,
            format!("at most {MAX_METADATA_KEYS} keys"),
        ));
    }
    for (k, v) in m {
        let path = format!("{field}.{k}");
        if k.is_empty() || k.len() > MAX_METADATA_KEY_LEN {
            return Err(ValidationError::new(
                path,
                format!("keys must be 1 to {MAX_METADATA_KEY_LEN} characters"),
            ));
        }
        if !k
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        {
            return Err(ValidationError::new(
                path,
                "keys must match ^[a-zA-Z0-9_.-]+$",
            ));
        }
        match v {
            Value::String(s) => string_len(&path, s)?,
            Value::Bool(_) => {}
            Value::Number(n) => {
                if n.as_f64().is_none_or(|f| !f.is_finite()) {
                    return Err(ValidationError::new(path, "numbers must be finite"));
                }
            }
            Value::Array(items) => {
                if items.len() > MAX_METADATA_ARRAY_LEN {
                    return Err(ValidationError::new(
                        path,
                        format!("arrays hold at most {MAX_METADATA_ARRAY_LEN} items"),
                    ));
                }
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => string_len(&format!("{path}[{i}]"), s)?,
                        _ => {
                            return Err(ValidationError::new(
                                format!("{path}[{i}]"),
                                "array items must be strings",
                            ))
                        }
                    }
                }
            }
            Value::Object(_) => {
                return Err(ValidationError::new(
                    path,
                    "nested objects are not allowed; values are strings, numbers, booleans or arrays of strings",
                ))
            }
            Value::Null => {
                return Err(ValidationError::new(
                    path,
                    "null is not allowed; values are strings, numbers, booleans or arrays of strings",
                ))
            }
        }
    }
    Ok(())
}

fn string_len(path: &str, s: &str) -> Result<(), ValidationError> {
    if s.chars().count() > MAX_METADATA_STRING_LEN {
        return Err(ValidationError::new(
            path,
            format!("strings are at most {MAX_METADATA_STRING_LEN} characters"),
        ));
    }
    Ok(())
}

/// A file path: non-empty, at most 1024 characters, no NUL.
pub fn filepath(field: &str, p: &str) -> Result<(), ValidationError> {
    if p.is_empty() || p.len() > MAX_FILEPATH_LEN || p.contains('\0') {
        return Err(ValidationError::new(
            field,
            format!("must be 1 to {MAX_FILEPATH_LEN} characters without NUL"),
        ));
    }
    Ok(())
}

/// A free-text field with a character limit.
pub fn max_chars(field: &str, s: &str, max: usize) -> Result<(), ValidationError> {
    if s.chars().count() > max {
        return Err(ValidationError::new(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    Ok(())
}

/// Document content: non-blank and at most [`MAX_CONTENT_BYTES`].
pub fn content(field: &str, s: &str) -> Result<(), ValidationError> {
    if s.trim().is_empty() {
        return Err(ValidationError::new(field, "must not be empty"));
    }
    if s.len() > MAX_CONTENT_BYTES {
        return Err(ValidationError::new(
            field,
            format!("must be at most {MAX_CONTENT_BYTES} bytes"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Metadata {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn container_tag_rules() {
        let cases: &[(&str, Option<&str>)] = &[
            ("user_123", None),
            ("a:b-c_D9", None),
            ("", Some("must not be empty")),
            ("has space", Some("must match")),
            ("dot.ted", Some("must match")),
            ("ünï", Some("must match")),
        ];
        for (tag, want) in cases {
            let got = container_tag("containerTag", tag).err().map(|e| e.message);
            match want {
                None => assert!(got.is_none(), "{tag}: {got:?}"),
                Some(w) => assert!(got.unwrap().contains(w), "{tag}"),
            }
        }
        assert!(container_tag("t", &"a".repeat(100)).is_ok());
        assert!(container_tag("t", &"a".repeat(101)).is_err());
    }

    #[test]
    fn plural_tags_name_the_bad_index() {
        let err = container_tags(None, Some(&["ok".into(), "bad tag".into()])).unwrap_err();
        assert_eq!(err.field, "containerTags[1]");
        let tags = container_tags(Some("a"), Some(&["a".into(), "b".into()])).unwrap();
        assert_eq!(tags, vec!["a", "b"]);
    }

    #[test]
    fn one_space_from_either_spelling() {
        let one = |s: Option<&str>, m: Option<&[&str]>| {
            let m: Option<Vec<String>> = m.map(|m| m.iter().map(|t| t.to_string()).collect());
            one_container_tag(s, m.as_deref()).map_err(|e| e.field)
        };
        assert_eq!(one(Some("a"), None), Ok(Some("a".into())));
        assert_eq!(one(None, Some(&["a"])), Ok(Some("a".into())));
        assert_eq!(one(Some("a"), Some(&["b"])), Ok(Some("a".into())));
        assert_eq!(one(None, None), Ok(None));
        assert_eq!(one(None, Some(&[])), Err("containerTags".into()));
        assert_eq!(one(None, Some(&["a", "b"])), Err("containerTags".into()));
        assert_eq!(one(None, Some(&["a", "a"])), Ok(Some("a".into())));
        assert_eq!(
            one(Some("a"), Some(&["bad tag"])),
            Err("containerTags[0]".into())
        );
    }

    #[test]
    fn metadata_rules() {
        assert!(metadata(
            "metadata",
            &meta(json!({"a": "x", "b.c": 1.5, "d": true, "e": ["x"]}))
        )
        .is_ok());
        let bad = [
            (json!({"a": {"b": 1}}), "metadata.a"),
            (json!({"a": null}), "metadata.a"),
            (json!({"a": [1]}), "metadata.a[0]"),
            (json!({"bad key": 1}), "metadata.bad key"),
            (json!({"a": "x".repeat(5000)}), "metadata.a"),
        ];
        for (v, field) in bad {
            assert_eq!(metadata("metadata", &meta(v)).unwrap_err().field, field);
        }
    }

    #[test]
    fn custom_id_rules() {
        assert!(custom_id("customId", "D1:3").is_ok());
        assert!(custom_id("customId", "doc.v1-2_x").is_ok());
        assert!(custom_id("customId", "has space").is_err());
        assert!(custom_id("customId", &"x".repeat(101)).is_err());
    }
}
