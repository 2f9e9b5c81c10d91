//! The part of Go's `text/template` that CCCMO's asset templates use, and nothing else.
//!
//! CCCMO parses every `pkg/cloud/<platform>/assets/*.yaml` with `template.ParseFS` and
//! `Option("missingkey=error")`, then executes it with a `map[string]interface{}` of strings and
//! one struct, `images` (cluster-cloud-controller-manager-operator `pkg/cloud/common/templates.go`
//! @ bc52198c). Over every asset of release-4.18 to release-4.23 the actions are of four forms
//! only: `{{ .name }}`, `{{ .images.Name }}`, `{{ if .name }}` and `{{ end }}`, each with or
//! without Go's trim markers (`{{- ` removes the white space before the action, ` -}}` the white
//! space after it). Those are evaluated here with Go's semantics; any other action (`range`,
//! `with`, `else`, a pipeline, a function, a variable, a comment) is refused with its file and
//! line, so that a template ccm-render cannot evaluate faithfully is never evaluated at all.

use anyhow::{Result, bail};
use std::collections::BTreeMap;

/// A value CCCMO passes to a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TemplateValue {
    /// A string (every value but `images`).
    Str(String),
    /// A struct of strings: `images` (field name → image). `type_name` is the Go type, for
    /// messages as Go words them.
    Struct {
        /// The Go type (`aws.imagesReference`).
        type_name: String,
        /// Field → value.
        fields: BTreeMap<String, String>,
    },
}

/// The values of one template execution (`common.TemplateValues`).
pub(crate) type Values = BTreeMap<String, TemplateValue>;

/// A field chain: `.name` or `.name.Field`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    key: String,
    sub: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Text(String),
    /// `{{ .x }}` at a line.
    Output(Field, usize),
    /// `{{ if .x }}` … `{{ end }}`.
    If(Field, usize, Vec<Node>),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Template {
    name: String,
    nodes: Vec<Node>,
}

/// A block open while parsing: the template itself, or an `{{ if }}` not yet ended.
#[derive(Default)]
struct OpenBlock {
    /// The nodes parsed inside the block so far.
    nodes: Vec<Node>,
    /// The `{{ if }}` that opened the block; None for the template itself.
    opened_by: Option<IfAt>,
}

/// An `{{ if .x }}` action, kept until its `{{ end }}` closes it.
struct IfAt {
    /// The field it tests.
    field: Field,
    /// Its line, for the node and for the message when no `{{ end }}` closes it.
    line: usize,
}

/// The blocks open while parsing, innermost last.
type Stack = Vec<OpenBlock>;

/// One action as written, before it is understood.
struct Action<'a> {
    body: &'a str,
    line: usize,
}

const WHITE: &[char] = &[' ', '\t', '\r', '\n'];

impl Template {
    /// Parses `text`; `name` (the file, as messages name it) starts every error, with the line
    /// of the action: `DIR/pkg/cloud/aws/assets/deployment.yaml:46: …`.
    pub(crate) fn parse(name: &str, text: &str) -> Result<Self> {
        let mut stack: Stack = vec![OpenBlock::default()];
        let mut rest = text;
        let mut line = 1;
        let mut trim_next = false;
        while !rest.is_empty() {
            let Some(open) = rest.find("{{") else {
                push_text(&mut stack, rest, trim_next, false);
                break;
            };
            let before = &rest[..open];
            let after_open = &rest[open + 2..];
            // Go's lexer: a left trim marker is "-" followed by white space.
            let trim_left = after_open.starts_with('-') && after_open[1..].starts_with(WHITE);
            push_text(&mut stack, before, trim_next, trim_left);
            line += before.matches('\n').count();
            let inner_start = usize::from(trim_left);
            let Some(close) = after_open.find("}}") else {
                bail!("{name}:{line}: unclosed action (no \"}}}}\")");
            };
            let mut inner = &after_open[inner_start..close];
            // A right trim marker is white space followed by "-".
            trim_next = inner.ends_with('-') && inner[..inner.len() - 1].ends_with(WHITE);
            if trim_next {
                inner = &inner[..inner.len() - 1];
            }
            let action = Action {
                body: inner.trim_matches(WHITE),
                line,
            };
            line += after_open[..close].matches('\n').count();
            rest = &after_open[close + 2..];
            apply_action(name, &action, &mut stack)?;
        }
        let OpenBlock { nodes, opened_by } = stack.pop().unwrap_or_default();
        if let Some(IfAt { line: at, .. }) = opened_by {
            bail!("{name}:{at}: {{{{ if }}}} without {{{{ end }}}}");
        }
        Ok(Self {
            name: name.to_string(),
            nodes,
        })
    }

    /// Executes the template as Go does with `missingkey=error`.
    pub(crate) fn execute(&self, values: &Values) -> Result<String> {
        let mut out = String::new();
        execute(&self.name, &self.nodes, values, &mut out)?;
        Ok(out)
    }
}

fn push_text(stack: &mut Stack, text: &str, trim_start: bool, trim_end: bool) {
    let mut text = text;
    if trim_start {
        text = text.trim_start_matches(WHITE);
    }
    if trim_end {
        text = text.trim_end_matches(WHITE);
    }
    if !text.is_empty()
        && let Some(block) = stack.last_mut()
    {
        block.nodes.push(Node::Text(text.to_string()));
    }
}

fn apply_action(name: &str, action: &Action<'_>, stack: &mut Stack) -> Result<()> {
    let line = action.line;
    let words: Vec<&str> = action.body.split(WHITE).filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        ["end"] => {
            let Some(OpenBlock {
                nodes,
                opened_by: Some(IfAt { field, line: at }),
            }) = stack.pop()
            else {
                bail!("{name}:{line}: {{{{ end }}}} without {{{{ if }}}}");
            };
            if let Some(parent) = stack.last_mut() {
                parent.nodes.push(Node::If(field, at, nodes));
            }
        }
        ["if", field] => {
            let field = parse_field(name, line, field, action.body)?;
            stack.push(OpenBlock {
                nodes: Vec::new(),
                opened_by: Some(IfAt { field, line }),
            });
        }
        [field] if field.starts_with('.') => {
            let field = parse_field(name, line, field, action.body)?;
            if let Some(block) = stack.last_mut() {
                block.nodes.push(Node::Output(field, line));
            }
        }
        _ => bail!(
            "{name}:{line}: {{{{ {} }}}}: ccm-render evaluates only {{{{ .name }}}}, {{{{ .images.Name }}}}, {{{{ if .name }}}} and {{{{ end }}}} (the actions CCCMO's templates use)",
            action.body
        ),
    }
    Ok(())
}

fn parse_field(name: &str, line: usize, word: &str, body: &str) -> Result<Field> {
    let parts: Vec<&str> = word.split('.').collect();
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    match parts.as_slice() {
        ["", key] if ident(key) => Ok(Field {
            key: (*key).to_string(),
            sub: None,
        }),
        ["", key, sub] if ident(key) && ident(sub) => Ok(Field {
            key: (*key).to_string(),
            sub: Some((*sub).to_string()),
        }),
        _ => bail!(
            "{name}:{line}: {{{{ {body} }}}}: ccm-render evaluates only {{{{ .name }}}}, {{{{ .images.Name }}}}, {{{{ if .name }}}} and {{{{ end }}}} (the actions CCCMO's templates use)"
        ),
    }
}

/// The value of a field, or Go's error for it (`missingkey=error`: a key the map lacks is an
/// error wherever it is looked up, in an `if` too).
fn lookup<'a>(name: &str, line: usize, field: &Field, values: &'a Values) -> Result<Lookup<'a>> {
    let Some(value) = values.get(&field.key) else {
        bail!(
            "{name}:{line}: map has no entry for key {:?} (CCCMO passes {})",
            field.key,
            values
                .keys()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    match (value, &field.sub) {
        (TemplateValue::Str(s), None) => Ok(Lookup::Str(s)),
        (TemplateValue::Struct { .. }, None) => Ok(Lookup::Struct),
        (TemplateValue::Struct { type_name, fields }, Some(sub)) => match fields.get(sub) {
            Some(v) => Ok(Lookup::Str(v)),
            None => bail!(
                "{name}:{line}: can't evaluate field {sub} in type {type_name} (its fields: {})",
                fields
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
        (TemplateValue::Str(_), Some(sub)) => bail!(
            "{name}:{line}: can't evaluate field {sub} in type string (.{} is a string)",
            field.key
        ),
    }
}

enum Lookup<'a> {
    Struct,
    Str(&'a str),
}

fn execute(name: &str, nodes: &[Node], values: &Values, out: &mut String) -> Result<()> {
    for node in nodes {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Output(field, line) => match lookup(name, *line, field, values)? {
                Lookup::Str(s) => out.push_str(s),
                Lookup::Struct => bail!(
                    "{name}:{line}: .{} is a struct: Go would print it as {{...}}, which no manifest means",
                    field.key
                ),
            },
            Node::If(field, line, body) => {
                // Go's truth: a non-empty string; a struct is always true.
                let truth = match lookup(name, *line, field, values)? {
                    Lookup::Str(s) => !s.is_empty(),
                    Lookup::Struct => true,
                };
                if truth {
                    execute(name, body, values, out)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> Values {
        let mut v = Values::new();
        v.insert("name".into(), TemplateValue::Str("AWS".into()));
        v.insert("empty".into(), TemplateValue::Str(String::new()));
        v.insert(
            "images".into(),
            TemplateValue::Struct {
                type_name: "aws.imagesReference".into(),
                fields: [("Ccm".to_string(), "img".to_string())].into(),
            },
        );
        v
    }

    fn run(text: &str) -> Result<String> {
        Template::parse("t.yaml", text)?.execute(&values())
    }

    #[test]
    fn fields_and_struct_fields_are_substituted() {
        assert_eq!(
            run("a: {{ .name }}\nb: {{.images.Ccm}}\n").expect("ok"),
            "a: AWS\nb: img\n"
        );
    }

    #[test]
    fn trim_markers_remove_white_space_on_their_side_only() {
        let text =
            "x \\\n  {{- if .empty }}\n  --tls={{ .empty }} \\\n  {{- end }}\n  --secure-port=0\n";
        assert_eq!(run(text).expect("ok"), "x \\\n  --secure-port=0\n");
        let text = "x \\\n  {{- if .name }}\n  --n={{ .name }} \\\n  {{- end }}\n  y\n";
        assert_eq!(run(text).expect("ok"), "x \\\n  --n=AWS \\\n  y\n");
        assert_eq!(run("a  {{ .name -}}  \n b").expect("ok"), "a  AWSb");
        // "-" without white space after it is not a trim marker (Go reads a number there).
        assert!(run("a {{-3}}").is_err());
    }

    #[test]
    fn a_missing_key_is_an_error_naming_the_line_even_in_an_if() {
        let err = format!("{:#}", run("a\nb: {{ .nope }}").expect_err("missing"));
        assert!(
            err.starts_with("t.yaml:2: map has no entry for key \"nope\""),
            "{err}"
        );
        let err = format!(
            "{:#}",
            run("a\n\n{{ if .nope }}x{{ end }}").expect_err("missing")
        );
        assert!(err.starts_with("t.yaml:3: map has no entry"), "{err}");
        let err = format!("{:#}", run("{{ .images.Nope }}").expect_err("field"));
        assert!(
            err.contains("can't evaluate field Nope in type aws.imagesReference"),
            "{err}"
        );
        assert!(run("{{ .name.X }}").is_err());
        assert!(run("{{ .images }}").is_err());
    }

    #[test]
    fn every_other_action_is_refused_with_its_line() {
        for action in [
            "{{ range .name }}{{ end }}",
            "{{ with .name }}{{ end }}",
            "{{ if .name }}a{{ else }}b{{ end }}",
            "{{ .name | printf \"%s\" }}",
            "{{ printf \"%s\" .name }}",
            "{{ $x := .name }}",
            "{{/* comment */}}",
            "{{ . }}",
            "{{ .a.b.c }}",
            "{{ template \"x\" }}",
            "{{ if .name }}",
            "{{ end }}",
            "{{ .name ",
        ] {
            let err = format!("{:#}", run(&format!("a\n{action}")).expect_err(action));
            assert!(err.starts_with("t.yaml:2: "), "{action}: {err}");
        }
    }

    #[test]
    fn nested_ifs_follow_go() {
        let text = "{{ if .name }}a{{ if .empty }}b{{ end }}c{{ end }}";
        assert_eq!(run(text).expect("ok"), "ac");
    }
}
