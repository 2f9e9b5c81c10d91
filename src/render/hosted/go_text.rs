//! How Go writes the text HyperShift puts in a cloud config: `fmt.Sprintf`'s `%s` verbs and
//! `html/template`'s `{{.Name}}` with its escaping (`encoding/json`'s `MarshalIndent` is the
//! catalogue crate's `go_encode::marshal_indent`).

use anyhow::{Result, bail};
use std::collections::BTreeMap;

/// `fmt.Sprintf(template, args...)` for a template whose only verbs are `%s`.
pub(crate) fn sprintf(template: &str, args: &[&str], what: &str) -> Result<String> {
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
pub(crate) fn html_template(
    template: &str,
    values: &BTreeMap<&str, &str>,
    what: &str,
) -> Result<String> {
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
}
