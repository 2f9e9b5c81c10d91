//! Reading fields of untyped JSON (objects parsed whole, such as APIServer and FeatureGate) with
//! errors that name the field's path (`spec.tlsSecurityProfile: expected an object, got a list`).

use anyhow::{Result, bail};
use serde_json::{Map, Value};

/// The value as an object.
pub fn as_object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    match value {
        Value::Object(map) => Ok(map),
        other => bail!("{path}: expected an object, got {}", type_name(other)),
    }
}

/// An optional object (absent or null is None).
pub fn optional_object<'a>(
    value: Option<&'a Value>,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(value) => as_object(value, path).map(Some),
    }
}

/// An optional string (absent or null is None).
pub fn optional_str<'a>(value: Option<&'a Value>, path: &str) -> Result<Option<&'a str>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => bail!("{path}: expected a string, got {}", type_name(other)),
    }
}

/// What kind of JSON value this is, for messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
