//! Typed records for the JSON (Azure) and YAML (vSphere) cloud configs: a table of the fields a
//! Go struct declares, and a reader that does to a `serde_json::Value` what Go's
//! `json.Unmarshal` followed by `json.Marshal` does to that struct: keys are matched exactly or
//! else without case, values are type-checked, unknown keys are dropped (with a warning, where
//! Go drops them silently), zero values of `omitempty` fields are left out, and fields come out
//! in declaration order.
//!
//! Messages name the field's path but never its value: Azure configs carry client secrets and
//! vSphere configs passwords.

use anyhow::{Result, bail};
use serde_json::{Map, Number, Value};

/// The Go type of a field, as far as its JSON form is concerned.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// `string`.
    Str,
    /// `bool`.
    Bool,
    /// `int`, `int32`: an integral JSON number.
    Int,
    /// `uint`: a non-negative integral JSON number.
    Uint,
    /// `float32`, `float64`.
    Float,
    /// `*bool`: `false` is kept, `null` means unset.
    OptBool,
    /// `[]string`.
    StrList,
    /// `map[string]string`.
    StrMap,
    /// A slice or map of structs this module does not model; kept as given.
    Opaque,
    /// A struct value.
    Struct(&'static [Field]),
    /// A pointer to a struct: kept whenever given, even if empty.
    OptStruct(&'static [Field]),
    /// `map[string]*struct`.
    StructMap(&'static [Field]),
}

/// When a field is left out of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Omit {
    /// `omitempty`: false, 0, "", null and empty lists or maps are left out; structs never are.
    Empty,
    /// `omitzero`, or `omitempty` on a pointer to a struct that is better left out when empty.
    Zero,
    /// No `omitempty`: always written, as its zero value when not given.
    Never,
}

/// One field of a Go struct: its JSON name, type and omission rule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    pub(crate) omit: Omit,
}

/// A field written with `omitempty`.
pub(crate) const fn field(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        omit: Omit::Empty,
    }
}

/// A field that is written even when zero.
pub(crate) const fn always(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        omit: Omit::Never,
    }
}

/// The values read for a struct, one slot per field, ready to be adjusted and written out.
#[derive(Debug, Clone)]
pub(crate) struct Record {
    fields: &'static [Field],
    values: Vec<Option<Value>>,
}

impl Record {
    /// Reads `object` against `fields`. `path` prefixes field names in messages (`"global."`).
    pub(crate) fn read(
        object: &Map<String, Value>,
        fields: &'static [Field],
        path: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Self> {
        let mut values = vec![None; fields.len()];
        for (key, value) in object {
            // Go's encoding/json prefers an exact match and falls back to one without case.
            let found = fields
                .iter()
                .position(|f| f.name == key)
                .or_else(|| fields.iter().position(|f| f.name.eq_ignore_ascii_case(key)));
            let Some((field, target)) =
                found.and_then(|slot| fields.get(slot).zip(values.get_mut(slot)))
            else {
                warnings.push(format!("dropped unknown key {path}{key}"));
                continue;
            };
            // Joined with concat, not format!, as the other paths here: a path is made for
            // every field read, and format!'s machinery cost about 500 instructions a path
            // (callgrind, Azure: 34 calls, 17 K).
            *target = check(value, field, &[path, field.name].concat(), warnings)?;
        }
        Ok(Self { fields, values })
    }

    /// Reads a value that must be an object (or null, read as empty).
    pub(crate) fn read_value(
        value: &Value,
        fields: &'static [Field],
        path: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Self> {
        match value {
            Value::Object(object) => Self::read(object, fields, path, warnings),
            Value::Null => Self::read(&Map::new(), fields, path, warnings),
            _ => bail!(
                "{} must be a mapping, found {}",
                describe(path),
                ccm_catalogue::json_fields::type_name(value)
            ),
        }
    }

    fn slot(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// The value of `name`, if given and not null.
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.slot(name)
            .and_then(|slot| self.values.get(slot))
            .and_then(Option::as_ref)
    }

    /// The string value of `name`, or "" when unset.
    pub(crate) fn str(&self, name: &str) -> &str {
        self.get(name).and_then(Value::as_str).unwrap_or("")
    }

    /// Sets `name` (a field of this record) to `value`.
    pub(crate) fn set(&mut self, name: &str, value: Value) {
        if let Some(target) = self.slot(name).and_then(|slot| self.values.get_mut(slot)) {
            *target = Some(value);
        }
    }

    /// The record as a JSON object in declaration order, without omitted fields.
    pub(crate) fn to_object(&self) -> Map<String, Value> {
        let mut object = Map::new();
        for (field, value) in self.fields.iter().zip(&self.values) {
            match value {
                Some(value) if !omitted(field, value) => {
                    object.insert(field.name.to_owned(), value.clone());
                }
                // Go writes a struct field even when empty; `omitempty` never drops one.
                None if field.omit == Omit::Never
                    || (field.omit == Omit::Empty && matches!(field.kind, Kind::Struct(_))) =>
                {
                    object.insert(field.name.to_owned(), zero(field.kind));
                }
                _ => {}
            }
        }
        object
    }
}

fn omitted(field: &Field, value: &Value) -> bool {
    let empty = match value {
        Value::Null => true,
        Value::Bool(b) => !b && !matches!(field.kind, Kind::OptBool),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => match field.kind {
            Kind::Struct(_) | Kind::OptStruct(_) => map.is_empty() && field.omit == Omit::Zero,
            _ => map.is_empty(),
        },
    };
    empty && field.omit != Omit::Never
}

fn zero(kind: Kind) -> Value {
    match kind {
        Kind::Str => Value::String(String::new()),
        Kind::Bool => Value::Bool(false),
        Kind::Int | Kind::Uint | Kind::Float => Value::Number(Number::from(0)),
        Kind::Struct(fields) => Value::Object(
            Record {
                fields,
                values: vec![None; fields.len()],
            }
            .to_object(),
        ),
        _ => Value::Null,
    }
}

fn describe(path: &str) -> String {
    if path.is_empty() {
        "the cloud config".to_owned()
    } else {
        path.trim_end_matches('.').to_owned()
    }
}

/// Checks one value against its field; `None` means unset (JSON null on a non-pointer field
/// leaves a Go field untouched).
fn check(
    value: &Value,
    field: &Field,
    path: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<Value>> {
    if value.is_null() {
        return Ok(None);
    }
    let wrong = |expected: &str| -> Result<Option<Value>> {
        bail!(
            "{path} must be {expected}, found {}",
            ccm_catalogue::json_fields::type_name(value)
        )
    };
    let checked = match (field.kind, value) {
        (Kind::Str, Value::String(_)) | (Kind::Bool | Kind::OptBool, Value::Bool(_)) => {
            value.clone()
        }
        (Kind::Bool | Kind::OptBool, Value::String(s)) => match yaml11_bool(s) {
            Some(b) => Value::Bool(b),
            None => return wrong("true or false"),
        },
        (Kind::Int, Value::Number(n)) if n.is_i64() => value.clone(),
        (Kind::Uint, Value::Number(n)) if n.is_u64() => value.clone(),
        (Kind::Int, Value::Number(n)) if n.is_u64() => bail!("{path} is too large"),
        (Kind::Int | Kind::Uint, _) => return wrong("a whole number"),
        (Kind::Float, Value::Number(n)) => go_float(n),
        (Kind::StrList, Value::Array(items)) if items.iter().all(Value::is_string) => value.clone(),
        (Kind::StrList, _) => return wrong("a list of strings"),
        (Kind::StrMap, Value::Object(map)) if map.values().all(Value::is_string) => value.clone(),
        (Kind::StrMap, _) => return wrong("a mapping of strings"),
        (Kind::Opaque, Value::Array(_) | Value::Object(_)) => value.clone(),
        (Kind::Opaque, _) => return wrong("a list or a mapping"),
        (Kind::Struct(fields) | Kind::OptStruct(fields), Value::Object(map)) => {
            Value::Object(Record::read(map, fields, &[path, "."].concat(), warnings)?.to_object())
        }
        (Kind::StructMap(fields), Value::Object(map)) => {
            let mut out = Map::new();
            for (name, item) in map {
                let item_path = [path, ".", name, "."].concat();
                let record = Record::read_value(item, fields, &item_path, warnings)?;
                out.insert(name.clone(), Value::Object(record.to_object()));
            }
            Value::Object(out)
        }
        (Kind::Struct(_) | Kind::OptStruct(_) | Kind::StructMap(_), _) => {
            return wrong("a mapping");
        }
        (Kind::Str, _) => return wrong("a string"),
        (Kind::Bool | Kind::OptBool, _) => return wrong("true or false"),
        (Kind::Float, _) => return wrong("a number"),
    };
    Ok(Some(checked))
}

/// YAML 1.1 booleans, which Go's YAML readers (`sigs.k8s.io/yaml` on go-yaml v2) accept where a
/// bool is expected; ccm-render's own YAML reader keeps them as strings.
fn yaml11_bool(text: &str) -> Option<bool> {
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Some(false)
        }
        _ => None,
    }
}

/// A float as Go's `json.Marshal` writes it: whole numbers without a fraction (`6`, not `6.0`).
fn go_float(n: &Number) -> Value {
    match n.as_f64() {
        #[allow(clippy::cast_possible_truncation)] // guarded: whole and well inside i64
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => Value::Number(Number::from(f as i64)),
        _ => Value::Number(n.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    const INNER: &[Field] = &[field("qps", Kind::Float), field("on", Kind::Bool)];
    const FIELDS: &[Field] = &[
        field("name", Kind::Str),
        field("flag", Kind::Bool),
        field("count", Kind::Int),
        field("port", Kind::Uint),
        field("maybe", Kind::OptBool),
        always("Entries", Kind::Opaque),
        always("batch", Kind::Int),
        field("list", Kind::StrList),
        field("tags", Kind::StrMap),
        field("limit", Kind::OptStruct(INNER)),
        field("inner", Kind::Struct(INNER)),
        field("byName", Kind::StructMap(INNER)),
    ];

    fn read(value: Value) -> (Result<Map<String, Value>>, Vec<String>) {
        let mut warnings = Vec::new();
        let Value::Object(object) = value else {
            panic!("test input must be an object")
        };
        let out = Record::read(&object, FIELDS, "", &mut warnings).map(|r| r.to_object());
        (out, warnings)
    }

    #[test]
    fn output_follows_declaration_order_and_omits_zero_values() {
        let (out, warnings) = read(json!({
            "list": ["a"], "maybe": false, "name": "", "flag": false, "count": 3, "port": 0,
        }));
        assert_eq!(
            serde_json::to_string(&out.expect("valid")).expect("serialises"),
            r#"{"count":3,"maybe":false,"Entries":null,"batch":0,"list":["a"],"inner":{}}"#
        );
        assert!(warnings.is_empty());
    }

    #[test]
    fn keys_match_without_case_when_no_exact_match_exists() {
        let (out, _) = read(json!({"NAME": "x", "Flag": true}));
        let out = out.expect("valid");
        assert_eq!(out.get("name"), Some(&json!("x")));
        assert_eq!(out.get("flag"), Some(&json!(true)));
    }

    #[test]
    fn unknown_keys_are_dropped_with_a_warning_naming_the_path() {
        let (out, warnings) = read(json!({"bogus": 1, "inner": {"extra": true}}));
        assert!(out.expect("valid").get("bogus").is_none());
        assert_eq!(
            warnings,
            vec![
                "dropped unknown key bogus",
                "dropped unknown key inner.extra"
            ]
        );
    }

    #[test]
    fn type_errors_name_the_path_but_not_the_value() {
        for (value, needle) in [
            (
                json!({"name": 12345}),
                "name must be a string, found a number",
            ),
            (json!({"flag": "secret-ish"}), "flag must be true or false"),
            (json!({"count": 1.5}), "count must be a whole number"),
            (json!({"port": -1}), "port must be a whole number"),
            (json!({"list": [1]}), "list must be a list of strings"),
            (json!({"limit": []}), "limit must be a mapping"),
            (
                json!({"byName": {"a": {"qps": "x"}}}),
                "byName.a.qps must be a number",
            ),
            (json!({"byName": {"a": 3}}), "byName.a must be a mapping"),
        ] {
            let err = format!("{:#}", read(value).0.expect_err(needle));
            assert!(err.contains(needle), "{err}");
            assert!(!err.contains("12345") && !err.contains("secret"), "{err}");
        }
    }

    #[test]
    fn pointers_keep_empty_structs_and_floats_lose_a_whole_fraction() {
        let (out, _) = read(json!({"limit": {}, "inner": {"qps": 6.0, "on": "yes"}}));
        let out = out.expect("valid");
        assert_eq!(out.get("limit"), Some(&json!({})));
        assert_eq!(out.get("inner"), Some(&json!({"qps": 6, "on": true})));
    }

    #[test]
    fn null_leaves_a_field_unset() {
        let (out, _) = read(json!({"name": null, "maybe": null, "Entries": null}));
        let out = out.expect("valid");
        assert!(out.get("name").is_none() && out.get("maybe").is_none());
        assert_eq!(out.get("Entries"), Some(&Value::Null));
    }
}
