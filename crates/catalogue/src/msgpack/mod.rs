//! MessagePack, the form of the compiled catalogue's entries ([`crate::compiled::Table`]):
//! read straight into `serde_json::Value` for a provider's objects ([`value`]), decoded into a
//! typed record by [`decoder`], and written from a `Value` ([`write_value`]) so that a record
//! parsed from a file is decoded by the same decoder as a built-in one.
//!
//! Decoding a provider's objects through serde (rmp-serde calling a `Visitor` per node) was a
//! fifth of a whole Azure render's instructions (callgrind: 0.50 M of 2.78 M); [`value`] does
//! the same with a `match` on each item, which took 0.05 M off: the rest is the allocations and
//! key hashing of the `Value`s themselves. It reads what `rmp_serde::to_vec` writes for a
//! `Value` (nil, booleans, integers, floats, strings, arrays, maps with string keys) and gives
//! the `Value` that `Value`'s own `Deserialize` gives through rmp-serde; anything else is an
//! error.

pub mod decoder;

use anyhow::{Result, bail};
use rmp::Marker;
use serde_json::{Map, Number, Value};

/// One MessagePack item: a scalar whole, or the head of an array or a map (its length; the
/// items follow).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Token<'a> {
    Nil,
    Bool(bool),
    /// A positive fixint or a `uint` of any width.
    Unsigned(u64),
    /// A negative fixint or an `int` of any width.
    Signed(i64),
    /// A `float 32` (widened) or `float 64`.
    Float(f64),
    Str(&'a str),
    Array(usize),
    Map(usize),
}

/// What is wrong with bytes that are not the MessagePack of a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed(&'static str);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MessagePack: {}", self.0)
    }
}

impl std::error::Error for Malformed {}

/// Reads one item from the front of `bytes` and advances past it.
pub(crate) fn token<'a>(bytes: &mut &'a [u8]) -> Result<Token<'a>, Malformed> {
    let marker = Marker::from_u8(take::<1>(bytes)?[0]);
    Ok(match marker {
        Marker::Null => Token::Nil,
        Marker::True => Token::Bool(true),
        Marker::False => Token::Bool(false),
        Marker::FixPos(n) => Token::Unsigned(n.into()),
        Marker::FixNeg(n) => Token::Signed(n.into()),
        Marker::U8 => Token::Unsigned(u8::from_be_bytes(take(bytes)?).into()),
        Marker::U16 => Token::Unsigned(u16::from_be_bytes(take(bytes)?).into()),
        Marker::U32 => Token::Unsigned(u32::from_be_bytes(take(bytes)?).into()),
        Marker::U64 => Token::Unsigned(u64::from_be_bytes(take(bytes)?)),
        Marker::I8 => Token::Signed(i8::from_be_bytes(take(bytes)?).into()),
        Marker::I16 => Token::Signed(i16::from_be_bytes(take(bytes)?).into()),
        Marker::I32 => Token::Signed(i32::from_be_bytes(take(bytes)?).into()),
        Marker::I64 => Token::Signed(i64::from_be_bytes(take(bytes)?)),
        Marker::F32 => Token::Float(f32::from_be_bytes(take(bytes)?).into()),
        Marker::F64 => Token::Float(f64::from_be_bytes(take(bytes)?)),
        Marker::FixStr(n) => Token::Str(string(usize::from(n), bytes)?),
        Marker::Str8 => Token::Str(string(u8::from_be_bytes(take(bytes)?).into(), bytes)?),
        Marker::Str16 => Token::Str(string(u16::from_be_bytes(take(bytes)?).into(), bytes)?),
        Marker::Str32 => Token::Str(string(widen(u32::from_be_bytes(take(bytes)?)), bytes)?),
        Marker::FixArray(n) => Token::Array(n.into()),
        Marker::Array16 => Token::Array(u16::from_be_bytes(take(bytes)?).into()),
        Marker::Array32 => Token::Array(widen(u32::from_be_bytes(take(bytes)?))),
        Marker::FixMap(n) => Token::Map(n.into()),
        Marker::Map16 => Token::Map(u16::from_be_bytes(take(bytes)?).into()),
        Marker::Map32 => Token::Map(widen(u32::from_be_bytes(take(bytes)?))),
        _ => {
            return Err(Malformed(
                "not a JSON value (binary, extension or reserved)",
            ));
        }
    })
}

/// Reads one value from the front of `bytes` and advances past it.
pub fn value(bytes: &mut &[u8]) -> Result<Value> {
    Ok(match token(bytes)? {
        Token::Nil => Value::Null,
        Token::Bool(b) => Value::Bool(b),
        Token::Unsigned(u) => Value::from(u),
        Token::Signed(i) => Value::from(i),
        Token::Float(f) => float(f),
        Token::Str(text) => Value::String(text.to_owned()),
        Token::Array(len) => {
            let mut list = Vec::with_capacity(len.min(bytes.len()));
            for _ in 0..len {
                list.push(value(bytes)?);
            }
            Value::Array(list)
        }
        Token::Map(len) => {
            let mut map = Map::with_capacity(len.min(bytes.len()));
            for _ in 0..len {
                let Token::Str(key) = token(bytes)? else {
                    bail!("MessagePack: a map key that is not a string");
                };
                map.insert(key.to_owned(), value(bytes)?);
            }
            Value::Object(map)
        }
    })
}

/// Reads an array of values from the front of `bytes` and advances past it.
pub fn list(bytes: &mut &[u8]) -> Result<Vec<Value>> {
    let len = array_len(bytes)?;
    let mut list = Vec::with_capacity(len.min(bytes.len()));
    for _ in 0..len {
        list.push(value(bytes)?);
    }
    Ok(list)
}

/// The array's element count that follows an array marker.
pub fn array_len(bytes: &mut &[u8]) -> Result<usize> {
    match token(bytes)? {
        Token::Array(len) => Ok(len),
        other => bail!("MessagePack: expected an array, got {other:?}"),
    }
}

/// Appends the MessagePack of `value` to `out`, as `rmp_serde::to_vec` writes it: integers in
/// the fewest bytes (non-negative ones as `uint`, as serde_json keeps them), floats as
/// `float 64`, map entries in the `Value`'s order.
pub fn write_value(value: &Value, out: &mut Vec<u8>) -> Result<(), Malformed> {
    match value {
        Value::Null => out.push(Marker::Null.to_u8()),
        Value::Bool(b) => out.push(if *b { Marker::True } else { Marker::False }.to_u8()),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => write_unsigned(u, out),
            (None, Some(i)) => write_negative(i, out),
            (None, None) => {
                out.push(Marker::F64.to_u8());
                out.extend(n.as_f64().unwrap_or(f64::NAN).to_be_bytes());
            }
        },
        Value::String(text) => write_str(text, out)?,
        Value::Array(list) => {
            write_len(list.len(), Counted::Array, out)?;
            for item in list {
                write_value(item, out)?;
            }
        }
        Value::Object(map) => {
            write_len(map.len(), Counted::Map, out)?;
            for (key, item) in map {
                write_str(key, out)?;
                write_value(item, out)?;
            }
        }
    }
    Ok(())
}

fn write_str(text: &str, out: &mut Vec<u8>) -> Result<(), Malformed> {
    write_len(text.len(), Counted::Str, out)?;
    out.extend(text.as_bytes());
    Ok(())
}

/// What a length counts.
#[derive(Clone, Copy)]
enum Counted {
    Str,
    Array,
    Map,
}

/// The head of a string, list or map of `len` items: the short form when it fits, else an 8-
/// (strings only), 16- or 32-bit length.
fn write_len(len: usize, kind: Counted, out: &mut Vec<u8>) -> Result<(), Malformed> {
    let len =
        u32::try_from(len).map_err(|_| Malformed("a string, list or map of 4 Gi items or more"))?;
    let (short, short_limit, long8, long16, long32): (fn(u8) -> Marker, u8, _, _, _) = match kind {
        Counted::Str => (
            Marker::FixStr,
            32,
            Some(Marker::Str8),
            Marker::Str16,
            Marker::Str32,
        ),
        Counted::Array => (Marker::FixArray, 16, None, Marker::Array16, Marker::Array32),
        Counted::Map => (Marker::FixMap, 16, None, Marker::Map16, Marker::Map32),
    };
    match (u8::try_from(len), u16::try_from(len), long8) {
        (Ok(n), _, _) if n < short_limit => out.push(short(n).to_u8()),
        (Ok(n), _, Some(long8)) => out.extend([long8.to_u8(), n]),
        (_, Ok(n), _) => head(long16, &n.to_be_bytes(), out),
        _ => head(long32, &len.to_be_bytes(), out),
    }
    Ok(())
}

fn write_unsigned(u: u64, out: &mut Vec<u8>) {
    if let Ok(small) = u8::try_from(u) {
        if small < 128 {
            out.push(Marker::FixPos(small).to_u8());
        } else {
            out.extend([Marker::U8.to_u8(), small]);
        }
    } else if let Ok(u) = u16::try_from(u) {
        head(Marker::U16, &u.to_be_bytes(), out);
    } else if let Ok(u) = u32::try_from(u) {
        head(Marker::U32, &u.to_be_bytes(), out);
    } else {
        head(Marker::U64, &u.to_be_bytes(), out);
    }
}

/// A negative integer (serde_json keeps every non-negative one as unsigned).
fn write_negative(i: i64, out: &mut Vec<u8>) {
    if let Ok(small) = i8::try_from(i) {
        if small >= -32 {
            out.push(Marker::FixNeg(small).to_u8());
        } else {
            out.extend([Marker::I8.to_u8(), small.to_be_bytes()[0]]);
        }
    } else if let Ok(i) = i16::try_from(i) {
        head(Marker::I16, &i.to_be_bytes(), out);
    } else if let Ok(i) = i32::try_from(i) {
        head(Marker::I32, &i.to_be_bytes(), out);
    } else {
        head(Marker::I64, &i.to_be_bytes(), out);
    }
}

fn head(marker: Marker, bytes: &[u8], out: &mut Vec<u8>) {
    out.push(marker.to_u8());
    out.extend(bytes);
}

/// As serde_json stores a float: one JSON cannot hold (NaN, infinity) is null.
fn float(v: f64) -> Value {
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// The string of `len` bytes at the front of `bytes`.
fn string<'a>(len: usize, bytes: &mut &'a [u8]) -> Result<&'a str, Malformed> {
    let (text, rest) = bytes
        .split_at_checked(len)
        .ok_or(Malformed("a string runs past the end"))?;
    *bytes = rest;
    std::str::from_utf8(text).map_err(|_| Malformed("a string that is not UTF-8"))
}

fn widen(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The next `N` bytes.
fn take<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N], Malformed> {
    let (head, rest) = bytes
        .split_first_chunk::<N>()
        .ok_or(Malformed("ends in the middle of a value"))?;
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
