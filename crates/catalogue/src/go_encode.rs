//! JSON as Go's `encoding/json` writes it, for the files ccm-render writes where OpenShift's Go
//! code would: the Azure cloud config (CCCMO's `json.Marshal` of cloud-provider-azure's config
//! struct) and the installer's Azure cloud-provider-config (`json.Encoder` with
//! `SetIndent("", "\t")`).
//!
//! The layout is serde_json's (compact, or pretty with the given indent: the same bytes as Go's
//! `Indent`, empty objects and arrays as `{}` and `[]`); the escaping of strings, keys included,
//! is Go's `appendString` with HTML escaping on, as `json.Marshal` and a `json.Encoder` without
//! `SetEscapeHTML(false)` do (Go `src/encoding/json/encode.go`, `appendString`; the safe
//! characters in `tables.go`, `htmlSafeSet`):
//!
//! * `"` and `\` as `\"` and `\\`;
//! * the control characters U+0008, U+000C, U+000A, U+000D, U+0009 as `\b`, `\f`, `\n`, `\r`,
//!   `\t` (Go 1.22 and later; every release this renders for is built with one), the other
//!   characters below U+0020 as `\u00XX` in lower-case hex;
//! * `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`;
//! * U+2028 and U+2029 as `\u2028` and `\u2029` (always, even without HTML escaping);
//! * everything else as it is: `/`, U+007F, and every other character (never a `\u` escape of
//!   a non-ASCII character). Go writes invalid UTF-8 as `\ufffd`; a Rust string has none.
//!
//! serde_json already escapes the first two classes exactly so (its `CharEscape`); the
//! formatter here adds the last two.

use anyhow::Result;
use serde_json::Value;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};
use std::io;

/// `json.Marshal(value)`: compact, no trailing newline.
pub fn marshal(value: &Value) -> Result<String> {
    write(value, CompactFormatter)
}

/// `json.MarshalIndent(value, "", indent)`: one member or element a line, `"key": value`, no
/// trailing newline.
pub fn marshal_indent(value: &Value, indent: &str) -> Result<String> {
    write(value, PrettyFormatter::with_indent(indent.as_bytes()))
}

/// A `json.Encoder` with `SetIndent("", indent)` encoding `value`: [`marshal_indent`] and the
/// newline `Encode` ends with.
pub fn encode_indented(value: &Value, indent: &str) -> Result<String> {
    let mut text = marshal_indent(value, indent)?;
    text.push('\n');
    Ok(text)
}

fn write<F: Formatter>(value: &Value, layout: F) -> Result<String> {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, GoStrings(layout));
    serde::Serialize::serialize(value, &mut ser)?;
    Ok(String::from_utf8(buf)?)
}

/// A formatter that lays out as `F` and escapes strings as Go does.
struct GoStrings<F>(F);

/// What Go escapes that serde_json writes as it is, in a run of a string that serde_json
/// found nothing to escape in.
fn go_escape(bytes: &[u8], i: usize) -> Option<(&'static [u8], usize)> {
    match bytes[i] {
        b'<' => Some((b"\\u003c", 1)),
        b'>' => Some((b"\\u003e", 1)),
        b'&' => Some((b"\\u0026", 1)),
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; E2 only ever begins a character.
        0xE2 => match bytes.get(i + 1..i + 3) {
            Some([0x80, 0xA8]) => Some((b"\\u2028", 3)),
            Some([0x80, 0xA9]) => Some((b"\\u2029", 3)),
            _ => None,
        },
        _ => None,
    }
}

impl<F: Formatter> Formatter for GoStrings<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let (mut start, mut i) = (0, 0);
        while i < bytes.len() {
            if let Some((escaped, len)) = go_escape(bytes, i) {
                writer.write_all(&bytes[start..i])?;
                writer.write_all(escaped)?;
                i += len;
                start = i;
            } else {
                i += 1;
            }
        }
        writer.write_all(&bytes[start..])
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        self.0.write_char_escape(writer, escape)
    }

    // The layout: the methods PrettyFormatter overrides, passed on.
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// A string, and the JSON string Go's `json.Marshal` writes for it (Go
    /// `src/encoding/json/encode.go`, `appendString` with `escapeHTML`; `tables.go`,
    /// `htmlSafeSet`).
    const GO_STRINGS: &[(&str, &str)] = &[
        // Plain ASCII, `/` and U+007F DELETE (safe in htmlSafeSet) as they are.
        (
            "abc XYZ 0-9 !#$%'()*+,-./:;=?@[]^_`{|}~",
            "\"abc XYZ 0-9 !#$%'()*+,-./:;=?@[]^_`{|}~\"",
        ),
        ("\u{7f}", "\"\u{7f}\""),
        // `"` and `\`.
        ("say \"hi\"", r#""say \"hi\"""#),
        ("C:\\dir", r#""C:\\dir""#),
        // HTML: `<`, `>`, `&`.
        (
            "<a href=x>&amp;</a>",
            r#""\u003ca href=x\u003e\u0026amp;\u003c/a\u003e""#,
        ),
        // The five short escapes (Go 1.22 and later).
        ("\u{8}\u{c}\n\r\t", r#""\b\f\n\r\t""#),
        // The other control characters: `\u00XX`, lower-case hex.
        ("\u{0}", r#""\u0000""#),
        ("\u{1}", r#""\u0001""#),
        ("\u{7}", r#""\u0007""#),
        ("\u{b}", r#""\u000b""#),
        ("\u{e}", r#""\u000e""#),
        ("\u{1b}[0m", r#""\u001b[0m""#),
        ("\u{1f}", r#""\u001f""#),
        // LINE SEPARATOR and PARAGRAPH SEPARATOR, and their neighbours as they are.
        ("a\u{2028}b\u{2029}c", r#""a\u2028b\u2029c""#),
        ("\u{2027}\u{202a}\u{2020}", "\"\u{2027}\u{202a}\u{2020}\""),
        // Other non-ASCII characters as they are: C1 controls, accents, the euro sign, U+FFFD,
        // and beyond the BMP (never a surrogate pair).
        ("\u{85}é€\u{fffd}🙂", "\"\u{85}é€\u{fffd}🙂\""),
        // Everything at once, escapes next to one another.
        ("<\u{2028}>\"&\n", r#""\u003c\u2028\u003e\"\u0026\n""#),
        ("", r#""""#),
    ];

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        for (input, go) in GO_STRINGS {
            assert_eq!(marshal(&json!(input)).expect("encodes"), *go, "{input:?}");
        }
    }

    #[test]
    fn every_control_character_is_escaped_as_go_escapes_it() {
        for byte in 0u8..0x20 {
            let go = match byte {
                0x08 => "\\b".to_string(),
                0x0c => "\\f".to_string(),
                b'\n' => "\\n".to_string(),
                b'\r' => "\\r".to_string(),
                b'\t' => "\\t".to_string(),
                _ => format!("\\u00{byte:02x}"),
            };
            let input = char::from(byte).to_string();
            assert_eq!(
                marshal(&json!(input)).expect("encodes"),
                format!("\"{go}\""),
                "{byte:#04x}"
            );
        }
    }

    #[test]
    fn keys_are_escaped_as_values_are_and_numbers_stay() {
        let value = json!({"<k&>": ["\u{2029}", 1, 2.5, true, null]});
        assert_eq!(
            marshal(&value).expect("encodes"),
            r#"{"\u003ck\u0026\u003e":["\u2029",1,2.5,true,null]}"#
        );
    }

    #[test]
    fn marshal_indent_is_the_encoder_s_layout_without_its_newline() {
        let value = json!({"a": "<&>", "b": true, "c": 6});
        let text = marshal_indent(&value, "  ").expect("encodes");
        assert_eq!(
            text,
            "{\n  \"a\": \"\\u003c\\u0026\\u003e\",\n  \"b\": true,\n  \"c\": 6\n}"
        );
        assert_eq!(encode_indented(&value, "  ").expect("encodes"), text + "\n");
    }

    #[test]
    fn the_indented_encoder_lays_out_as_go_s_and_ends_with_a_newline() {
        // What a Go json.Encoder with SetIndent("", "\t") writes for the same map, fields in
        // order (Go src/encoding/json/indent.go: empty objects and arrays stay `{}` and `[]`).
        let value = json!({"a": [], "b": {}, "c": [1, {"d": "<x>"}], "e": "\u{2028}"});
        assert_eq!(
            encode_indented(&value, "\t").expect("encodes"),
            "{\n\t\"a\": [],\n\t\"b\": {},\n\t\"c\": [\n\t\t1,\n\t\t{\n\t\t\t\"d\": \"\\u003cx\\u003e\"\n\t\t}\n\t],\n\t\"e\": \"\\u2028\"\n}\n"
        );
    }
}
