//! Go's `json.Encoder` output, as the installer writes a cloud-provider-config in JSON.

use anyhow::Result;
use serde_json::Value;

/// Go's `json.Encoder` with `SetIndent("", "\t")`: fields in the order given, a trailing
/// newline, and `<`, `>`, `&` escaped as `\u003c`, `\u003e`, `\u0026` (Go's HTML-safe default;
/// those characters only occur inside strings, so replacing them everywhere is exact).
pub fn go_json_tab(value: &Value) -> Result<String> {
    let mut buf = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"\t");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
    serde::Serialize::serialize(value, &mut ser)?;
    let mut text = String::from_utf8(buf)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    text.push('\n');
    Ok(text)
}
