//! Building `serde_json::Value`s from JSON input with each map and list allocated at its final
//! size when the format gives it, refusing what the YAML parser might read differently, so that
//! [`json_document`] can hand such text to it.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Decodes one value, nested at most `depth` levels; fails on a float or a repeated key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seed {
    depth: usize,
}

impl Seed {
    /// For input: fails on a float, a repeated key, or nesting deeper than `depth`.
    pub(crate) fn strict(depth: usize) -> Self {
        Self { depth }
    }

    fn inner<E: de::Error>(self) -> Result<Self, E> {
        match self.depth.checked_sub(1) {
            Some(depth) => Ok(Self { depth }),
            None => Err(E::custom("nested too deep")),
        }
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
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Value, E> {
        Err(E::custom("a float"))
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
            if map.insert(key, value).is_some() {
                return Err(de::Error::custom("a repeated key"));
            }
        }
        Ok(Value::Object(map))
    }
}
