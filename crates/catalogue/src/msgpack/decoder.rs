//! A typed record decoded from MessagePack, with the path of the field an error is about: the
//! one decoder of every record this crate and the inputs read, built in or parsed from a file.
//!
//! serde compiles a record's decoding once for every decoder that reads it. The built-in
//! entries went through rmp-serde and the same records read from a `--provider-dir` (and the
//! inputs) through `serde_path_to_error` over serde_json's `&Value` decoder: two copies of each
//! record, 0.39 + 0.30 MB of the binary (docs/performance.md). A parsed file is now written as
//! MessagePack first ([`super::write_value`]) and decoded here too.
//!
//! It decodes as serde_json's `&Value` decoder does, message for message (the errors of a
//! `--provider-dir` or an input are what they were): arrays and maps go to `visit_seq` and
//! `visit_map` and must be read whole (`fewer elements in array`), a string or a map of one
//! entry is an enum, nil is `None`, a struct variant's content a map and a tuple variant's a
//! list. What rmp-serde writes for a record (a struct, a struct variant's content included, as
//! the array of its fields; an enum otherwise as serde_json writes it) decodes as rmp-serde
//! decoded it: the [`Source`] says which of the two wrote the bytes. A map's keys are strings,
//! as they are in JSON and in every record's maps (serde_json would also parse a number from a
//! key for a map keyed by numbers; no record has one). The generic part, compiled per record,
//! is a `match` on an item already read ([`super::token`]), so that each record's copy stays
//! small.

use super::Token;
use crate::path_error::PathError;
use serde::Deserialize as _;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, Visitor};

/// What wrote the bytes: the two differ in a struct variant's content only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A value parsed from a file, written by [`super::write_value`]: decoded as serde_json
    /// decodes the value, which takes a struct variant's content from a map only.
    Parsed,
    /// A record written by `rmp_serde::to_vec` (the built-in entries), which writes a struct
    /// variant's content, as every struct, as the list of its fields.
    Record,
}

/// Decodes `T` from `bytes`, which hold one value, written by `source`, and nothing after it.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8], source: Source) -> Result<T, PathError> {
    let mut decoder = Decoder { bytes, source };
    let value = T::deserialize(&mut decoder)?;
    if decoder.bytes.is_empty() {
        Ok(value)
    } else {
        Err(de::Error::custom("MessagePack: bytes after the value"))
    }
}

/// The bytes left to decode.
struct Decoder<'de> {
    bytes: &'de [u8],
    source: Source,
}

impl<'de> Decoder<'de> {
    fn token(&mut self) -> Result<Token<'de>, PathError> {
        super::token(&mut self.bytes).map_err(de::Error::custom)
    }

    /// Hands the item `token` (and the items under it) to `visitor`.
    fn visit<V: Visitor<'de>>(
        &mut self,
        token: Token<'de>,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match token {
            Token::Nil => visitor.visit_unit(),
            Token::Bool(b) => visitor.visit_bool(b),
            Token::Unsigned(u) => visitor.visit_u64(u),
            Token::Signed(i) => visitor.visit_i64(i),
            Token::Float(f) => visitor.visit_f64(f),
            Token::Str(text) => visitor.visit_borrowed_str(text),
            Token::Array(len) => {
                let mut items = Items {
                    decoder: self,
                    left: len,
                    next: 0,
                };
                let value = visitor.visit_seq(&mut items)?;
                match items.left {
                    0 => Ok(value),
                    _ => Err(de::Error::invalid_length(len, &"fewer elements in array")),
                }
            }
            Token::Map(len) => {
                let mut entries = Entries {
                    decoder: self,
                    left: len,
                    key: "",
                };
                let value = visitor.visit_map(&mut entries)?;
                match entries.left {
                    0 => Ok(value),
                    _ => Err(de::Error::invalid_length(len, &"fewer elements in map")),
                }
            }
        }
    }

    /// Steps over one value and everything under it.
    fn skip(&mut self) -> Result<(), PathError> {
        let mut items = 1_usize;
        while items > 0 {
            items -= 1;
            match self.token()? {
                Token::Array(len) => items = items.saturating_add(len),
                Token::Map(len) => items = items.saturating_add(len.saturating_mul(2)),
                _ => {}
            }
        }
        Ok(())
    }
}

/// What `token` is, in the terms of serde's messages (serde_json's `Value::unexpected`).
fn unexpected(token: Token<'_>) -> de::Unexpected<'_> {
    match token {
        Token::Nil => de::Unexpected::Unit,
        Token::Bool(b) => de::Unexpected::Bool(b),
        Token::Unsigned(u) => de::Unexpected::Unsigned(u),
        Token::Signed(i) => de::Unexpected::Signed(i),
        Token::Float(f) => de::Unexpected::Float(f),
        Token::Str(text) => de::Unexpected::Str(text),
        Token::Array(_) => de::Unexpected::Seq,
        Token::Map(_) => de::Unexpected::Map,
    }
}

impl<'de> Deserializer<'de> for &mut Decoder<'de> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        let token = self.token()?;
        self.visit(token, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.bytes.split_first() {
            Some((&nil, rest)) if nil == rmp::Marker::Null.to_u8() => {
                self.bytes = rest;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        visitor.visit_newtype_struct(self)
    }

    // An enum is its variant's name, or a map of one entry from the name to the content
    // (serde_json's `deserialize_enum`, and what rmp-serde writes).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.token()? {
            Token::Str(name) => visitor.visit_enum(Variant {
                decoder: self,
                name,
                content: false,
            }),
            Token::Map(1) => match self.token()? {
                Token::Str(name) => visitor.visit_enum(Variant {
                    decoder: self,
                    name,
                    content: true,
                }),
                other => Err(de::Error::invalid_type(
                    unexpected(other),
                    &"a variant name",
                )),
            },
            Token::Map(_) => Err(de::Error::invalid_value(
                de::Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        self.skip()?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// A list's items: how many are left, and the index of the next.
struct Items<'a, 'de> {
    decoder: &'a mut Decoder<'de>,
    left: usize,
    next: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = PathError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, PathError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let index = self.next;
        self.next += 1;
        seed.deserialize(&mut *self.decoder)
            .map(Some)
            .map_err(|e| e.within_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A map's entries: how many are left, and the key read last.
struct Entries<'a, 'de> {
    decoder: &'a mut Decoder<'de>,
    left: usize,
    key: &'de str,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = PathError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, PathError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // JSON's keys are strings, and so are those of every map and record rmp-serde wrote.
        let key = match self.decoder.token()? {
            Token::Str(key) => key,
            other => return Err(de::Error::invalid_type(unexpected(other), &"a string key")),
        };
        self.key = key;
        // An unknown field is named by its own key.
        seed.deserialize(BorrowedStrDeserializer::<PathError>::new(key))
            .map(Some)
            .map_err(|e| e.within_key(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, PathError> {
        let key = self.key;
        seed.deserialize(&mut *self.decoder)
            .map_err(|e| e.within_key(key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum's variant: a string, or a map's key whose value is the content.
struct Variant<'a, 'de> {
    decoder: &'a mut Decoder<'de>,
    name: &'de str,
    /// Whether a content follows (the variant was a map's key).
    content: bool,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = PathError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), PathError> {
        let variant = seed.deserialize(BorrowedStrDeserializer::<PathError>::new(self.name))?;
        Ok((variant, self))
    }
}

/// A variant's content that is more than one value.
#[derive(Clone, Copy)]
enum Compound {
    Tuple,
    Struct,
}

impl<'de> Variant<'_, 'de> {
    /// The content of a tuple variant (a list; serde_json reads an empty one as a unit) or of
    /// a struct variant (a map; the list of its fields in what rmp-serde wrote).
    fn compound<V: Visitor<'de>>(
        self,
        visitor: V,
        compound: Compound,
    ) -> Result<V::Value, PathError> {
        let expected = match compound {
            Compound::Tuple => "tuple variant",
            Compound::Struct => "struct variant",
        };
        let read = if self.content {
            match (compound, self.decoder.token()) {
                (Compound::Tuple, Ok(Token::Array(0))) => visitor.visit_unit(),
                (Compound::Tuple, Ok(token @ Token::Array(_)))
                | (Compound::Struct, Ok(token @ Token::Map(_))) => {
                    self.decoder.visit(token, visitor)
                }
                (Compound::Struct, Ok(token @ Token::Array(_)))
                    if self.decoder.source == Source::Record =>
                {
                    self.decoder.visit(token, visitor)
                }
                (_, Ok(other)) => Err(de::Error::invalid_type(unexpected(other), &expected)),
                (_, Err(e)) => Err(e),
            }
        } else {
            Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &expected,
            ))
        };
        read.map_err(|e| e.within_key(self.name))
    }
}

// An error in a variant's content is about the variant: `serde_path_to_error` names it.
impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = PathError;

    fn unit_variant(self) -> Result<(), PathError> {
        let read = if self.content {
            <()>::deserialize(&mut *self.decoder)
        } else {
            Ok(())
        };
        read.map_err(|e| e.within_key(self.name))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, PathError> {
        let read = if self.content {
            seed.deserialize(&mut *self.decoder)
        } else {
            Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"newtype variant",
            ))
        };
        read.map_err(|e| e.within_key(self.name))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.compound(visitor, Compound::Tuple)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.compound(visitor, Compound::Struct)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Record {
        name: String,
        #[serde(default)]
        port: u16,
        #[serde(default)]
        ratio: f64,
        #[serde(default)]
        offset: i32,
        #[serde(default)]
        items: Vec<Item>,
        #[serde(default)]
        note: Option<String>,
        #[serde(default)]
        labels: BTreeMap<String, String>,
        #[serde(default)]
        how: Vec<How>,
        #[serde(default)]
        free: Value,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Item {
        port: u16,
        #[serde(default)]
        on: bool,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    enum How {
        Plain,
        Named(String),
        Pair(u8, u8),
        Shaped { width: u32 },
    }

    /// A parsed document decoded as `json_fields::decode` decodes it.
    fn ours<T: DeserializeOwned>(value: &Value) -> Result<T, PathError> {
        let mut bytes = Vec::new();
        super::super::write_value(value, &mut bytes).expect("writes");
        from_slice(&bytes, Source::Parsed)
    }

    /// What `serde_path_to_error` over serde_json's `&Value` decoder said: the decoder these
    /// records and inputs went through before.
    fn theirs<T: DeserializeOwned>(value: &Value) -> Result<T, (String, String)> {
        serde_path_to_error::deserialize(value)
            .map_err(|e| (e.path().to_string(), e.into_inner().to_string()))
    }

    fn full() -> Value {
        json!({
            "name": "a", "port": 443, "ratio": 0.5, "offset": -40,
            "items": [{"port": 1}, {"port": 2, "on": true}],
            "note": null, "labels": {"b": "1", "a": "2"},
            "how": ["plain", {"named": "x"}, {"pair": [1, 2]}, {"shaped": {"width": 7}}],
            "free": {"k": [1, -1, 1.5, "s", null, true, {"nested": []}]}
        })
    }

    #[test]
    fn a_parsed_record_decodes_as_serde_json_decodes_it() {
        for value in [
            full(),
            json!({"name": "b"}),
            json!({"name": "c", "note": "n"}),
        ] {
            let record: Record = ours(&value).expect("decodes");
            assert_eq!(Ok(record), theirs::<Record>(&value));
        }
    }

    #[test]
    fn what_rmp_serde_writes_for_a_record_decodes_as_rmp_serde_decodes_it() {
        // rmp-serde writes a struct as the list of its fields: build.rs's built-in entries.
        let record: Record = serde_json::from_value(full()).expect("a record");
        let bytes = rmp_serde::to_vec(&record).expect("encodes");
        let back: Record = from_slice(&bytes, Source::Record).expect("decodes");
        assert_eq!(back, record);
        assert_eq!(
            back,
            rmp_serde::from_slice::<Record>(&bytes).expect("rmp-serde")
        );
    }

    #[test]
    fn every_error_has_serde_path_to_error_s_path_and_serde_json_s_words() {
        let cases = [
            json!({"name": 3}),
            json!({"name": null}),
            json!({"name": "a", "port": "443"}),
            json!({"name": "a", "port": 70_000}),
            json!({"name": "a", "port": -1}),
            json!({"name": "a", "ratio": "x"}),
            json!({"name": "a", "offset": 1.5}),
            json!({"name": "a", "items": [{"port": 1}, {"port": true}]}),
            json!({"name": "a", "items": [{"on": true}]}),
            json!({"name": "a", "items": {"port": 1}}),
            json!({"name": "a", "items": [[80, true, 3]]}),
            json!({"name": "a", "nmae": 1}),
            json!({"name": "a", "note": ["x"]}),
            json!({"name": "a", "labels": {"k": 1}}),
            json!({"name": "a", "labels": []}),
            json!({"name": "a", "how": ["round"]}),
            json!({"name": "a", "how": [{"named": 1}]}),
            json!({"name": "a", "how": [{"named": "x", "plain": null}]}),
            json!({"name": "a", "how": [{"plain": 1}]}),
            json!({"name": "a", "how": [{"pair": [1]}]}),
            json!({"name": "a", "how": [{"pair": 1}]}),
            json!({"name": "a", "how": [{"pair": {}}]}),
            json!({"name": "a", "how": [{"pair": []}]}),
            json!({"name": "a", "how": [{"shaped": [7]}]}),
            json!({"name": "a", "how": [{"shaped": []}]}),
            json!({"name": "a", "labels": {"": 1}}),
            json!({"name": "a", "how": [{"shaped": {"width": "w"}}]}),
            json!({"name": "a", "how": [{"shaped": 3}]}),
            json!({"name": "a", "how": ["named"]}),
            json!({"name": "a", "how": [3]}),
            json!({}),
            json!([]),
            json!(["a", 1, 1.0, 1, [], null, {}, [], null, 2]),
            json!("text"),
            json!(null),
        ];
        for value in cases {
            let err = ours::<Record>(&value).expect_err("refused");
            let expected = theirs::<Record>(&value).expect_err("refused");
            assert_eq!((err.path(), err.message().to_string()), expected, "{value}");
        }
    }

    #[test]
    fn a_value_field_holds_what_serde_json_holds() {
        let value = json!({"u": u64::MAX, "i": i64::MIN, "f": -0.25, "e": 1.0, "s": "é"});
        let decoded: Value = ours(&value).expect("decodes");
        assert_eq!(decoded, value);
        assert_eq!(decoded["e"].as_f64(), Some(1.0));
        assert!(decoded["e"].is_f64());
    }

    #[test]
    fn truncated_or_trailing_bytes_are_errors() {
        let record: Record = serde_json::from_value(full()).expect("a record");
        let bytes = rmp_serde::to_vec(&record).expect("encodes");
        for end in 0..bytes.len() {
            assert!(
                from_slice::<Record>(&bytes[..end], Source::Record).is_err(),
                "{end}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0xc0);
        let err =
            from_slice::<Record>(&longer, Source::Record).expect_err("a value after the record");
        assert_eq!(err.message(), "MessagePack: bytes after the value");
        let err = from_slice::<Value>(&[0xc4, 1, 0], Source::Parsed).expect_err("binary");
        assert!(
            err.message().starts_with("MessagePack: "),
            "{}",
            err.message()
        );
    }

    #[test]
    fn an_ignored_value_is_stepped_over_whole() {
        #[derive(Debug, PartialEq, Deserialize)]
        struct Last {
            last: u8,
        }
        let value = json!({"skip": {"a": [1, {"b": [null, "x"]}], "c": {}}, "last": 9});
        assert_eq!(ours::<Last>(&value).expect("decodes"), Last { last: 9 });
    }
}
