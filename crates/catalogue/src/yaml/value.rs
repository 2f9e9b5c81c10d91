//! Building `serde_json::Value`s from a self-describing serde format (serde_json, MessagePack)
//! with each map and list allocated at its final size when the format gives it.
//!
//! `Value`'s own `Deserialize` grows its maps one entry at a time (a new table and a rehash at
//! 4, 8, 16 entries), which was a sixth of decoding a provider's objects (callgrind, Azure).
//! The strict form (for input) refuses what the YAML parser might read differently, so that
//! [`json_document`] can hand such text to it.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Decodes one value, nested at most `depth` levels.
#[derive(Debug, Clone, Copy)]
pub struct Seed {
    depth: usize,
    strict: bool,
}

impl Seed {
    /// For trusted data (the compiled catalogue): every value as `Value` would decode it.
    pub fn trusted() -> Self {
        Self {
            depth: usize::MAX,
            strict: false,
        }
    }

    /// For input: fails on a float, a repeated key, or nesting deeper than `depth`.
    pub fn strict(depth: usize) -> Self {
        Self {
            depth,
            strict: true,
        }
    }

    fn inner<E: de::Error>(self) -> Result<Self, E> {
        match self.depth.checked_sub(1) {
            Some(depth) => Ok(Self { depth, ..self }),
            None => Err(E::custom("nested too deep")),
        }
    }
}

/// A list of values decoded with [`Seed::trusted`] (for `#[serde(deserialize_with)]`).
pub fn trusted_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
    match Seed::trusted().deserialize(d)? {
        Value::Array(list) => Ok(list),
        other => Err(de::Error::custom(format!(
            "expected a list, got {}",
            crate::json_fields::type_name(&other)
        ))),
    }
}

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// At most this many entries are reserved ahead of reading them.
const MAX_RESERVED: usize = 4096;

impl<'de> Visitor<'de> for Seed {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        if self.strict {
            return Err(E::custom("a float"));
        }
        // As serde_json: a float JSON cannot hold (NaN, infinity) is null.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX_RESERVED));
        while let Some(item) = seq.next_element_seed(inner)? {
            list.push(item);
        }
        Ok(Value::Array(list))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut map = Map::with_capacity(entries.size_hint().unwrap_or(0).min(MAX_RESERVED));
        while let Some(key) = entries.next_key::<String>()? {
            let value = entries.next_value_seed(inner)?;
            if map.insert(key, value).is_some() && self.strict {
                return Err(de::Error::custom("a repeated key"));
            }
        }
        Ok(Value::Object(map))
    }
}
