//! Decoding a parsed value into a typed record with a [`KeyMatch`] of its own (the installer's
//! inputs match keys as Go's encoding/json does), and the path of the field an error is about
//! ([`PathError`], shared with the catalogue's decoder).
//!
//! The path is gathered on the way out of each map value and list item. Wrapping this decoder
//! in `serde_path_to_error` as well, for every install-config type, took 90 KB of the shipped
//! binary; records decoded with exact keys go through the catalogue's own decoder
//! (`ccm_catalogue::json_fields::typed`).

use ccm_catalogue::path_error::PathError;
use serde::Deserializer;
use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// How an object's keys reach a struct's fields (`fields`, the JSON names serde hands over):
/// each entry renamed to the field it decodes into, in the order they are decoded.
pub(crate) type KeyMatch =
    for<'v> fn(&'v Map<String, Value>, &'static [&'static str]) -> Vec<(String, Cow<'v, Value>)>;

/// Decodes `T` from `value`, each struct's keys matched to its fields by `keys`.
pub(crate) fn from_value<T: DeserializeOwned>(
    value: &Value,
    keys: KeyMatch,
) -> Result<T, PathError> {
    T::deserialize(Decoder {
        value: Cow::Borrowed(value),
        keys,
    })
}

/// Hands a scalar to `visitor` as serde_json's own decoder does (its `Value::deserialize_any`),
/// without going through that decoder: doing so built a second copy of every install-config
/// record's decoding, for serde_json's decoder (0.1 MB of the binary).
fn visit_scalar<'de, V: Visitor<'de>>(value: &Value, visitor: V) -> Result<V::Value, PathError> {
    match unexpected(value) {
        de::Unexpected::Unit => visitor.visit_unit(),
        de::Unexpected::Bool(b) => visitor.visit_bool(b),
        de::Unexpected::Unsigned(u) => visitor.visit_u64(u),
        de::Unexpected::Signed(i) => visitor.visit_i64(i),
        de::Unexpected::Float(f) => visitor.visit_f64(f),
        de::Unexpected::Str(text) => visitor.visit_str(text),
        other => Err(de::Error::invalid_type(other, &visitor)),
    }
}

/// What `value` is, in the terms of serde's messages (serde_json's `Value::unexpected`).
fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => de::Unexpected::Unsigned(u),
            (None, Some(i), _) => de::Unexpected::Signed(i),
            (None, None, f) => de::Unexpected::Float(f.unwrap_or(f64::NAN)),
        },
        Value::String(text) => de::Unexpected::Str(text),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// One value being decoded.
struct Decoder<'v> {
    value: Cow<'v, Value>,
    keys: KeyMatch,
}

impl<'de> Deserializer<'de> for Decoder<'_> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let keys = self.keys;
        match self.value {
            Cow::Borrowed(Value::Array(items)) => {
                visitor.visit_seq(Items::new(items.iter().map(Cow::Borrowed).collect(), keys))
            }
            Cow::Owned(Value::Array(items)) => visitor.visit_seq(Items::new(
                items.into_iter().map(Cow::Owned).collect(),
                keys,
            )),
            Cow::Borrowed(Value::Object(map)) => visitor.visit_map(Entries::new(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v)))
                    .collect(),
                keys,
            )),
            Cow::Owned(Value::Object(map)) => visitor.visit_map(Entries::new(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Cow::Owned(v)))
                    .collect(),
                keys,
            )),
            Cow::Owned(Value::String(text)) => visitor.visit_string(text),
            scalar => visit_scalar(&scalar, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.value.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let matching = self.keys;
        let entries = match self.value {
            Cow::Borrowed(Value::Object(map)) => matching(map, fields)
                .into_iter()
                .map(|(key, value)| (Cow::Owned(key), value))
                .collect(),
            Cow::Owned(Value::Object(map)) => matching(&map, fields)
                .into_iter()
                .map(|(key, value)| (Cow::Owned(key), Cow::Owned(value.into_owned())))
                .collect(),
            // Go's encoding/json leaves a struct as it is for `null` (`compute: [null]` is a
            // pool with no field set): no entries, every field its default.
            Cow::Borrowed(Value::Null) | Cow::Owned(Value::Null) => Vec::new(),
            // It refuses anything else that is not an object (`cannot unmarshal array into Go
            // value of type …`), and so does this.
            other => return Err(de::Error::invalid_type(unexpected(&other), &visitor)),
        };
        visitor.visit_map(Entries::new(entries, self.keys))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.value
            .into_owned()
            .deserialize_enum(name, variants, visitor)
            .map_err(<PathError as de::Error>::custom)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map identifier
    }
}

/// A list's items, and the index of the next.
struct Items<'v> {
    left: std::vec::IntoIter<Cow<'v, Value>>,
    next: usize,
    keys: KeyMatch,
}

impl<'v> Items<'v> {
    fn new(items: Vec<Cow<'v, Value>>, keys: KeyMatch) -> Self {
        Self {
            left: items.into_iter(),
            next: 0,
            keys,
        }
    }
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = PathError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        let Some(value) = self.left.next() else {
            return Ok(None);
        };
        let index = self.next;
        self.next += 1;
        let keys = self.keys;
        seed.deserialize(Decoder { value, keys })
            .map(Some)
            .map_err(|e| e.within_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.len())
    }
}

/// An object's entries, and the one whose key was read last.
struct Entries<'v> {
    left: std::vec::IntoIter<(Cow<'v, str>, Cow<'v, Value>)>,
    value: Option<(Cow<'v, str>, Cow<'v, Value>)>,
    keys: KeyMatch,
}

impl<'v> Entries<'v> {
    fn new(entries: Vec<(Cow<'v, str>, Cow<'v, Value>)>, keys: KeyMatch) -> Self {
        Self {
            left: entries.into_iter(),
            value: None,
            keys,
        }
    }
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = PathError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.left.next() else {
            return Ok(None);
        };
        // An unknown field is named by its own key.
        let read = seed
            .deserialize(de::IntoDeserializer::<PathError>::into_deserializer(
                key.as_ref(),
            ))
            .map_err(|e| e.within_key(&key));
        self.value = Some((key, value));
        read.map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let (key, value) = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a map value was asked for before its key"))?;
        let keys = self.keys;
        seed.deserialize(Decoder { value, keys })
            .map_err(|e| e.within_key(&key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Record {
        name: String,
        #[serde(default)]
        items: Vec<Item>,
        #[serde(default)]
        note: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        port: u16,
    }

    /// Keys as they are.
    fn exact<'v>(
        map: &'v Map<String, Value>,
        _fields: &'static [&'static str],
    ) -> Vec<(String, Cow<'v, Value>)> {
        map.iter()
            .map(|(k, v)| (k.clone(), Cow::Borrowed(v)))
            .collect()
    }

    #[test]
    fn a_record_decodes_as_serde_json_decodes_it() {
        let value = json!({"name": "a", "items": [{"port": 1}], "note": null});
        let record: Record = from_value(&value, exact).expect("decodes");
        assert_eq!(
            record,
            serde_json::from_value(value).expect("serde_json decodes")
        );
    }

    #[test]
    fn an_error_names_the_path_of_the_field() {
        let value = json!({"name": "a", "items": [{"port": 1}, {"port": "x"}]});
        let err = from_value::<Record>(&value, exact).expect_err("a string port");
        assert_eq!(err.path(), "items[1].port");
        assert_eq!(err.message(), "invalid type: string \"x\", expected u16");
        let err =
            from_value::<Record>(&json!({"name": "a", "nmae": 1}), exact).expect_err("unknown");
        assert_eq!(err.path(), "nmae");
        let err = from_value::<Record>(&json!({}), exact).expect_err("missing");
        assert_eq!(
            (err.path().as_str(), err.message()),
            (".", "missing field `name`")
        );
    }

    #[test]
    fn scalars_are_worded_as_serde_json_words_them() {
        // Every scalar, wrong for each field: the message is serde_json's own, word for word.
        for (field, wrong) in [
            ("name", json!(null)),
            ("name", json!(true)),
            ("name", json!(7)),
            ("name", json!(-7)),
            ("name", json!(1.5)),
            ("note", json!(["x"])),
            ("items", json!({"port": 1})),
            ("items", json!("x")),
        ] {
            let mut value = json!({"name": "a"});
            value[field] = wrong.clone();
            let ours = from_value::<Record>(&value, exact).expect_err("wrong type");
            let theirs = serde_json::from_value::<Record>(value).expect_err("wrong type");
            assert_eq!(ours.path(), field);
            assert_eq!(ours.message(), theirs.to_string(), "{field}: {wrong}");
        }
        let err = from_value::<Item>(&json!({"port": 70000}), exact).expect_err("too large");
        assert_eq!(
            err.message(),
            "invalid value: integer `70000`, expected u16"
        );
    }

    #[test]
    fn a_record_is_decoded_from_an_object_only_as_go_does() {
        // serde_json would take a list as the fields in order; Go's encoding/json refuses it.
        let err = from_value::<Record>(&json!({"name": "a", "items": [[80]]}), exact)
            .expect_err("a list for a record");
        assert_eq!(err.path(), "items[0]");
        assert_eq!(
            err.message(),
            "invalid type: sequence, expected struct Item"
        );
        let err = from_value::<Record>(&json!(true), exact).expect_err("a boolean for a record");
        assert_eq!(
            err.message(),
            "invalid type: boolean `true`, expected struct Record"
        );
    }

    #[test]
    fn null_for_a_record_sets_no_field_as_go_does() {
        #[derive(Debug, Deserialize, PartialEq)]
        struct Defaults {
            #[serde(default)]
            note: Option<String>,
        }
        // Every field of `Record` but `name` has a default: null is a record with no key.
        let err = from_value::<Record>(&json!(null), exact).expect_err("name is required");
        assert_eq!(err.message(), "missing field `name`");
        let record: Defaults = from_value(&json!(null), exact).expect("decodes");
        assert_eq!(record, Defaults { note: None });
    }
}
