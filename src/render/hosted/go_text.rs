//! How Go writes the text HyperShift puts in a cloud config: `fmt.Sprintf`'s `%s` verbs,
//! `html/template`'s `{{.Name}}` with its escaping, and `encoding/json`'s `MarshalIndent`.

use anyhow::{Result, bail};
use std::collections::BTreeMap;

/// `fmt.Sprintf(template, args...)` for a template whose only verbs are `%s`.
pub fn sprintf(template: &str, args: &[&str], what: &str) -> Result<String> {
    let parts: Vec<&str> = template.split("%s").collect();
    if parts.len() != args.len() + 1 || template.contains("%%") {
        bail!(
            "{what}: expected {} %s verbs in the template, found {}",
            args.len(),
            parts.len() - 1
        );
    }
    let mut out = String::from(parts[0]);
    for (arg, part) in args.iter().zip(&parts[1..]) {
        out.push_str(arg);
        out.push_str(part);
    }
    Ok(out)
}

/// `html/template` of a template whose only actions are `{{.Key}}`, each value HTML-escaped as
/// the package escapes text.
pub fn html_template(template: &str, values: &BTreeMap<&str, &str>, what: &str) -> Result<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find("}}") else {
            bail!("{what}: an action is not closed");
        };
        let action = rest[start + 2..start + end].trim();
        let Some(key) = action.strip_prefix('.') else {
            bail!("{what}: unsupported action {{{{{action}}}}}");
        };
        let Some(value) = values.get(key) else {
            bail!("{what}: unknown field .{key}");
        };
        out.push_str(&html_escape(value));
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\0' => out.push('\u{FFFD}'),
            '"' => out.push_str("&#34;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&#39;"),
            '+' => out.push_str("&#43;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// One JSON value of a Go struct field.
pub enum Field {
    /// A string.
    Str(String),
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i64),
}

/// `json.MarshalIndent(struct, "", "  ")` of a struct whose fields are `fields`, in order.
pub fn marshal_indent(fields: &[(&str, Field)]) -> String {
    let mut out = String::from("{\n");
    for (i, (key, value)) in fields.iter().enumerate() {
        out.push_str("  ");
        out.push_str(&go_json_string(key));
        out.push_str(": ");
        match value {
            Field::Str(s) => out.push_str(&go_json_string(s)),
            Field::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Field::Int(n) => out.push_str(&n.to_string()),
        }
        if i + 1 < fields.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push('}');
    out
}

/// A JSON string as Go's `encoding/json` writes it (HTML characters and the two line
/// separators escaped).
fn go_json_string(text: &str) -> String {
    let plain = serde_json::Value::String(text.to_string()).to_string();
    plain
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprintf_fills_each_verb_and_checks_their_count() {
        assert_eq!(
            sprintf("a=%s b=%s", &["1", "2"], "t").expect("fills"),
            "a=1 b=2"
        );
        assert!(sprintf("a=%s", &["1", "2"], "t").is_err());
    }

    #[test]
    fn html_template_escapes_as_go_does() {
        let values = BTreeMap::from([("A", "x<y>&'\"+")]);
        assert_eq!(
            html_template("v = {{.A}}\n", &values, "t").expect("fills"),
            "v = x&lt;y&gt;&amp;&#39;&#34;&#43;\n"
        );
        assert!(html_template("{{.B}}", &values, "t").is_err());
    }

    #[test]
    fn marshal_indent_writes_go_json() {
        let text = marshal_indent(&[
            ("a", Field::Str("<&>".into())),
            ("b", Field::Bool(true)),
            ("c", Field::Int(6)),
        ]);
        assert_eq!(
            text,
            "{\n  \"a\": \"\\u003c\\u0026\\u003e\",\n  \"b\": true,\n  \"c\": 6\n}"
        );
    }
}
