//! MessagePack read straight into `serde_json::Value`, for the objects of the compiled catalogue
//! ([`crate::compiled::Table::objects`]).
//!
//! Decoding a provider's objects through serde (rmp-serde calling a `Visitor` per node) was a
//! fifth of a whole Azure render's instructions (callgrind: 0.50 M of 2.78 M); this reader
//! does the same with a `match` on each marker byte, which took 0.05 M off: the rest is the
//! allocations and key hashing of the `Value`s themselves. It reads what `rmp_serde::to_vec`
//! writes for a `Value` (nil, booleans, integers, floats, strings, arrays, maps with string
//! keys) and gives the `Value` that `Value`'s own `Deserialize` gives through rmp-serde;
//! anything else is an error.

use anyhow::{Result, anyhow, bail};
use rmp::Marker;
use serde_json::{Map, Number, Value};

/// Reads one value from the front of `bytes` and advances past it.
pub fn value(bytes: &mut &[u8]) -> Result<Value> {
    let marker = Marker::from_u8(take::<1>(bytes)?[0]);
    Ok(match marker {
        Marker::Null => Value::Null,
        Marker::True => Value::Bool(true),
        Marker::False => Value::Bool(false),
        Marker::FixPos(n) => Value::from(n),
        Marker::FixNeg(n) => Value::from(n),
        Marker::U8 => Value::from(u8::from_be_bytes(take(bytes)?)),
        Marker::U16 => Value::from(u16::from_be_bytes(take(bytes)?)),
        Marker::U32 => Value::from(u32::from_be_bytes(take(bytes)?)),
        Marker::U64 => Value::from(u64::from_be_bytes(take(bytes)?)),
        Marker::I8 => Value::from(i8::from_be_bytes(take(bytes)?)),
        Marker::I16 => Value::from(i16::from_be_bytes(take(bytes)?)),
        Marker::I32 => Value::from(i32::from_be_bytes(take(bytes)?)),
        Marker::I64 => Value::from(i64::from_be_bytes(take(bytes)?)),
        Marker::F32 => float(f32::from_be_bytes(take(bytes)?).into()),
        Marker::F64 => float(f64::from_be_bytes(take(bytes)?)),
        Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
            Value::String(string(marker, bytes)?)
        }
        Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
            let len = length(marker, bytes)?;
            let mut list = Vec::with_capacity(len.min(bytes.len()));
            for _ in 0..len {
                list.push(value(bytes)?);
            }
            Value::Array(list)
        }
        Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
            let len = length(marker, bytes)?;
            let mut map = Map::with_capacity(len.min(bytes.len()));
            for _ in 0..len {
                let key_marker = Marker::from_u8(take::<1>(bytes)?[0]);
                let key = string(key_marker, bytes)?;
                map.insert(key, value(bytes)?);
            }
            Value::Object(map)
        }
        other => bail!("MessagePack: unexpected {other:?} in a JSON value"),
    })
}

/// Reads an array of values from the front of `bytes` and advances past it.
pub fn list(bytes: &mut &[u8]) -> Result<Vec<Value>> {
    match value(bytes)? {
        Value::Array(list) => Ok(list),
        other => bail!(
            "MessagePack: expected a list, got {}",
            crate::json_fields::type_name(&other)
        ),
    }
}

/// The array's element count that follows an array `marker`.
pub fn array_len(bytes: &mut &[u8]) -> Result<usize> {
    let marker = Marker::from_u8(take::<1>(bytes)?[0]);
    match marker {
        Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => length(marker, bytes),
        other => bail!("MessagePack: expected an array, got {other:?}"),
    }
}

/// As serde_json stores a float: one JSON cannot hold (NaN, infinity) is null.
fn float(v: f64) -> Value {
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// The string that follows a string `marker`.
fn string(marker: Marker, bytes: &mut &[u8]) -> Result<String> {
    let len = match marker {
        Marker::FixStr(n) => usize::from(n),
        Marker::Str8 => usize::from(u8::from_be_bytes(take(bytes)?)),
        Marker::Str16 => usize::from(u16::from_be_bytes(take(bytes)?)),
        Marker::Str32 => widen(u32::from_be_bytes(take(bytes)?)),
        other => bail!("MessagePack: expected a string, got {other:?}"),
    };
    let (text, rest) = bytes
        .split_at_checked(len)
        .ok_or_else(|| anyhow!("MessagePack: a string runs past the end"))?;
    *bytes = rest;
    Ok(std::str::from_utf8(text)?.to_owned())
}

/// The element count that follows an array or map `marker`.
fn length(marker: Marker, bytes: &mut &[u8]) -> Result<usize> {
    Ok(match marker {
        Marker::FixArray(n) | Marker::FixMap(n) => usize::from(n),
        Marker::Array16 | Marker::Map16 => usize::from(u16::from_be_bytes(take(bytes)?)),
        _ => widen(u32::from_be_bytes(take(bytes)?)),
    })
}

fn widen(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The next `N` bytes.
fn take<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N]> {
    let (head, rest) = bytes
        .split_first_chunk::<N>()
        .ok_or_else(|| anyhow!("MessagePack: ends in the middle of a value"))?;
    *bytes = rest;
    Ok(*head)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What serde reads through rmp-serde, as the catalogue decoded before.
    fn through_serde(bytes: &[u8]) -> Value {
        rmp_serde::from_slice(bytes).expect("decodes")
    }

    fn direct(bytes: &[u8]) -> Value {
        let mut rest = bytes;
        let value = value(&mut rest).expect("decodes");
        assert!(rest.is_empty(), "{} bytes left", rest.len());
        value
    }

    #[test]
    fn every_kind_of_value_reads_as_through_serde() {
        let long = "x".repeat(70_000);
        let many: Vec<Value> = (0..70_000).map(Value::from).collect();
        let wide: Map<String, Value> = (0..300).map(|i| (i.to_string(), json!(i))).collect();
        for value in [
            json!(null),
            json!({"a": [true, false, null, 0, 127, 128, 255, 256, 65_535, 65_536, u64::MAX]}),
            json!([-1, -32, -33, -128, -129, -32_768, -32_769, i64::MIN]),
            json!([1.5, -0.25]),
            json!({"": "", "é": "ünïcödé", "k": "x".repeat(31), "l": "y".repeat(32)}),
            json!({"s": "z".repeat(300), "list": (0..20).collect::<Vec<_>>()}),
            json!({"nested": {"deeper": [{"x": [[]]}, {}]}}),
            json!(long),
            Value::Array(many),
            Value::Object(wide),
        ] {
            let bytes = crate::compiled::encode(&value).expect("encodes");
            assert_eq!(direct(&bytes), through_serde(&bytes));
            assert_eq!(direct(&bytes), value);
        }
    }

    #[test]
    fn a_float32_reads_as_through_serde() {
        for f in [1.5_f32, f32::NAN, f32::INFINITY] {
            let bytes = rmp_serde::to_vec(&f).expect("encodes");
            assert_eq!(direct(&bytes), through_serde(&bytes));
        }
    }

    #[test]
    fn truncated_or_foreign_bytes_are_errors() {
        let bytes = crate::compiled::encode(&json!({"key": ["value", 300]})).expect("encodes");
        for end in 0..bytes.len() {
            assert!(value(&mut &bytes[..end]).is_err(), "{end}");
        }
        for foreign in [
            &[0xc4, 1, 0][..],
            &[0xd4, 0, 0],
            &[0xc1],
            &[0x81, 1, 2],
            &[0xa1, 0xff],
        ] {
            assert!(value(&mut &foreign[..]).is_err(), "{foreign:?}");
        }
        assert!(list(&mut &[0xc0][..]).is_err());
        assert!(array_len(&mut &[0xc0][..]).is_err());
    }
}
