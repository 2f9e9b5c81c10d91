//! YAML as gopkg.in/yaml.v2's `Marshal` writes it (and `sigs.k8s.io/yaml`, which marshals to
//! JSON and hands the result to its copy of yaml.v2, go.yaml.in/yaml/v2), for vSphere's
//! cloud-provider-config. The value is built first (`serde_json::Value`, keys in the order Go
//! writes them: a struct's field order, or [`sort_maps`] for Go maps); this module only lays it
//! out.
//!
//! Why not the crate the rest of ccm-render writes YAML with (`ccm_catalogue::yaml`,
//! serde-saphyr): the installer's text is compared byte for byte, and yaml.v2 differs from it in
//! how a string is quoted. yaml.v2 writes a string plain unless it would read back as something
//! else (`encode.go` `stringv`: `resolve`, `isBase60Float`) or libyaml's emitter forbids it
//! (`emitterc.go` `yaml_emitter_analyze_scalar`), then single-quoted, double-quoted only when
//! that is forbidden too; it folds plain and quoted strings at a space past column 80
//! (`best_width`); and it sorts map keys in its own order (`sorter.go`, digits by value). Each
//! of those rules is here, with the libyaml function it follows.

use anyhow::{Result, bail};
use serde_json::{Map, Value};
use std::cmp::Ordering;

mod resolve;

use resolve::reads_back_as_string;

/// libyaml's `best_width`, which yaml.v2 leaves at its default.
const BEST_WIDTH: usize = 80;
/// libyaml's longest simple key (`yaml_emitter_check_simple_key`); a longer one is written in
/// the `? key` form, which ccm-render does not write.
const MAX_SIMPLE_KEY: usize = 128;

/// `yaml.Marshal` of a mapping, its keys in the order `value` holds them.
pub(super) fn marshal(value: &Map<String, Value>) -> Result<String> {
    let mut out = Emitter::default();
    out.mapping(value, 0, false)?;
    Ok(out.text)
}

/// Sorts `map` and every mapping in it as yaml.v2 sorts a Go map's keys: what
/// `sigs.k8s.io/yaml` does to a whole document, whose JSON it reads back as
/// `map[interface{}]interface{}`.
pub(super) fn sort_maps(map: &mut Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    entries.sort_by(|a, b| key_order(&a.0, &b.0));
    for (key, mut value) in entries {
        sort_value(&mut value);
        map.insert(key, value);
    }
}

fn sort_value(value: &mut Value) {
    match value {
        Value::Object(map) => sort_maps(map),
        Value::Array(list) => list.iter_mut().for_each(sort_value),
        _ => {}
    }
}

/// yaml.v2's `keyList.Less` for two string keys: letters after everything else, letters by
/// code point, runs of digits by their value (`a2` before `a10`), a shorter run of equal value
/// first. Only ASCII digits count as digits here (yaml.v2 takes `unicode.IsDigit`); vCenter
/// names are host names.
pub(super) fn key_order(a: &str, b: &str) -> Ordering {
    let (ar, br): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn) = (0_i64, 0_i64);
        if ar[i] == '0' || br[i] == '0' {
            // A zero inside a number that began with another digit is not a leading zero.
            if ar[..i]
                .iter()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .any(|&c| c != '0')
            {
                (an, bn) = (1, 1);
            }
        }
        let run = |r: &[char], n: &mut i64| {
            let mut end = i;
            while end < r.len() && r[end].is_ascii_digit() {
                *n = n
                    .wrapping_mul(10)
                    .wrapping_add(i64::from(r[end] as u8 - b'0'));
                end += 1;
            }
            end
        };
        let (ai, bi) = (run(&ar, &mut an), run(&br, &mut bn));
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}

/// The text written so far and the column the next character goes to (libyaml counts
/// characters, not bytes).
#[derive(Default)]
struct Emitter {
    text: String,
    column: usize,
}

impl Emitter {
    fn push(&mut self, c: char) {
        self.text.push(c);
        if c == '\n' {
            self.column = 0;
        } else {
            self.column += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    /// `yaml_emitter_write_indent` where a line is broken: a new line, then `indent` spaces.
    fn new_line(&mut self, indent: usize) {
        self.push('\n');
        (0..indent).for_each(|_| self.push(' '));
    }

    /// A block mapping whose keys sit at column `at`; the first key follows what is already
    /// on the line when `inline` (after `- `).
    fn mapping(&mut self, map: &Map<String, Value>, at: usize, inline: bool) -> Result<()> {
        for (i, (key, value)) in map.iter().enumerate() {
            if i > 0 || !inline {
                (0..at).for_each(|_| self.push(' '));
            }
            if key.chars().count() > MAX_SIMPLE_KEY {
                bail!(
                    "{key:?}: longer than the {MAX_SIMPLE_KEY} characters of a YAML simple key, which the installer's YAML writer puts in a form ccm-render does not write"
                );
            }
            self.string(key, at + 2, true);
            self.push(':');
            self.node(value, at, true)?;
        }
        Ok(())
    }

    /// A block sequence whose `-` sit at column `at`; the first follows what is already on the
    /// line when `inline`.
    fn sequence(&mut self, list: &[Value], at: usize, inline: bool) -> Result<()> {
        for (i, item) in list.iter().enumerate() {
            if i > 0 || !inline {
                (0..at).for_each(|_| self.push(' '));
            }
            self.push('-');
            self.node(item, at, false)?;
        }
        Ok(())
    }

    /// The node after `key:` (`in_mapping`) or `-`, its parent at column `at`. A list under a
    /// key is not indented (libyaml's indentless sequence in a mapping).
    fn node(&mut self, value: &Value, at: usize, in_mapping: bool) -> Result<()> {
        match value {
            Value::Object(map) if map.is_empty() => self.push_str(" {}\n"),
            Value::Array(list) if list.is_empty() => self.push_str(" []\n"),
            Value::Object(map) if in_mapping => {
                self.push('\n');
                self.mapping(map, at + 2, false)?;
            }
            Value::Object(map) => {
                self.push(' ');
                self.mapping(map, at + 2, true)?;
            }
            Value::Array(list) if in_mapping => {
                self.push('\n');
                self.sequence(list, at, false)?;
            }
            Value::Array(list) => {
                self.push(' ');
                self.sequence(list, at + 2, true)?;
            }
            Value::String(text) => {
                self.push(' ');
                self.string(text, at + 2, false);
                self.push('\n');
            }
            Value::Null => self.push_str(" null\n"),
            Value::Bool(b) => self.push_str(if *b { " true\n" } else { " false\n" }),
            Value::Number(n) => {
                let text = format!(" {n}\n");
                self.push_str(&text);
            }
        }
        Ok(())
    }

    /// A string scalar in the style yaml.v2 picks (`encode.go` `stringv`, then libyaml's
    /// `yaml_emitter_select_scalar_style`); continuation lines at column `indent`. A key
    /// (`simple_key`) is never broken and never a block scalar.
    fn string(&mut self, text: &str, indent: usize, simple_key: bool) {
        let analysis = analyse(text);
        let requested = if text.contains('\n') {
            Style::Literal
        } else if reads_back_as_string(text) {
            Style::Plain
        } else {
            Style::DoubleQuoted
        };
        let mut style = requested;
        if style == Style::Plain && !analysis.block_plain_allowed {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!analysis.block_allowed || simple_key) {
            style = Style::DoubleQuoted;
        }
        let breaks = !simple_key;
        match style {
            Style::Plain => self.plain(text, indent, breaks),
            Style::SingleQuoted => self.single_quoted(text, indent, breaks),
            Style::DoubleQuoted => self.double_quoted(text, indent, breaks),
            Style::Literal => self.literal(text, indent),
        }
    }

    /// `yaml_emitter_write_plain_scalar` (single-line: a line break makes it a literal).
    fn plain(&mut self, text: &str, indent: usize, breaks: bool) {
        let chars: Vec<char> = text.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if breaks && !spaces && self.column > BEST_WIDTH && chars.get(i + 1) != Some(&' ') {
                    self.new_line(indent);
                } else {
                    self.push(c);
                }
                spaces = true;
            } else {
                self.push(c);
                spaces = false;
            }
        }
    }

    /// `yaml_emitter_write_single_quoted_scalar` (single-line).
    fn single_quoted(&mut self, text: &str, indent: usize, breaks: bool) {
        let chars: Vec<char> = text.chars().collect();
        self.push('\'');
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                    && chars[i + 1] != ' '
                {
                    self.new_line(indent);
                } else {
                    self.push(c);
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.push('\'');
                }
                self.push(c);
                spaces = false;
            }
        }
        self.push('\'');
    }

    /// `yaml_emitter_write_double_quoted_scalar`: libyaml's escapes, upper-case hex.
    fn double_quoted(&mut self, text: &str, indent: usize, breaks: bool) {
        let chars: Vec<char> = text.chars().collect();
        self.push('"');
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.push('\\');
                let short = match c {
                    '\0' => Some('0'),
                    '\u{7}' => Some('a'),
                    '\u{8}' => Some('b'),
                    '\t' => Some('t'),
                    '\n' => Some('n'),
                    '\u{b}' => Some('v'),
                    '\u{c}' => Some('f'),
                    '\r' => Some('r'),
                    '\u{1b}' => Some('e'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '\u{85}' => Some('N'),
                    '\u{a0}' => Some('_'),
                    '\u{2028}' => Some('L'),
                    '\u{2029}' => Some('P'),
                    _ => None,
                };
                if let Some(s) = short {
                    self.push(s);
                } else {
                    let code = u32::from(c);
                    let escaped = if code <= 0xFF {
                        format!("x{code:02X}")
                    } else if code <= 0xFFFF {
                        format!("u{code:04X}")
                    } else {
                        format!("U{code:08X}")
                    };
                    self.push_str(&escaped);
                }
                spaces = false;
            } else if c == ' ' {
                if breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i + 1 < chars.len() {
                    self.new_line(indent);
                    if chars[i + 1] == ' ' {
                        self.push('\\');
                    }
                } else {
                    self.push(c);
                }
                spaces = true;
            } else {
                self.push(c);
                spaces = false;
            }
        }
        self.push('"');
    }

    /// `yaml_emitter_write_literal_scalar` with `yaml_emitter_write_block_scalar_hints`: `|`,
    /// an indentation hint when the text starts with a space or break, `-` without a final
    /// line break, `+` with more than one; lines at `indent`, empty ones without spaces.
    fn literal(&mut self, text: &str, indent: usize) {
        self.push('|');
        if text.starts_with([' ', '\n']) {
            self.push('2');
        }
        if !text.ends_with('\n') {
            self.push('-');
        } else if text == "\n" || text.ends_with("\n\n") {
            self.push('+');
        }
        self.push('\n');
        let mut at_line_start = true;
        for c in text.chars() {
            if c == '\n' {
                self.push('\n');
                at_line_start = true;
            } else {
                if at_line_start {
                    (0..indent).for_each(|_| self.push(' '));
                    at_line_start = false;
                }
                self.push(c);
            }
        }
        // The scalar's own final break stands for the node's newline.
        if self.text.ends_with('\n') {
            self.text.pop();
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// What libyaml's `yaml_emitter_analyze_scalar` allows in block context.
struct Analysis {
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// libyaml's `is_printable` (yaml.v2 sets `unicode`, so no other character is special).
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        && c != '\u{feff}'
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || is_break(c)
}

/// `yaml_emitter_analyze_scalar`, for the block context ccm-render writes in.
fn analyse(text: &str) -> Analysis {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Analysis {
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = text.starts_with("---") || text.starts_with("...");
    let mut special = false;
    let (mut line_breaks, mut leading_space, mut leading_break) = (false, false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    let last = chars.len() - 1;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&n| is_blank(n));
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) || (c == '-' && followed_by_whitespace) {
                block_indicators = true;
            }
            if matches!(c, '?' | ':') && followed_by_whitespace {
                block_indicators = true;
            }
        } else if (c == ':' && followed_by_whitespace) || (c == '#' && preceded_by_whitespace) {
            block_indicators = true;
        }
        if !is_printable(c) {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= i == last;
            break_space |= previous_break;
            (previous_space, previous_break) = (true, false);
        } else if is_break(c) {
            leading_break |= i == 0;
            trailing_break |= i == last;
            space_break |= previous_space;
            (previous_space, previous_break) = (false, true);
        } else {
            (previous_space, previous_break) = (false, false);
        }
        preceded_by_whitespace = is_blank(c);
    }
    let mut block_plain_allowed = true;
    let mut single_quoted_allowed = true;
    let mut block_allowed = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        block_plain_allowed = false;
    }
    if trailing_space {
        block_allowed = false;
    }
    if break_space {
        block_plain_allowed = false;
        single_quoted_allowed = false;
    }
    if space_break || special {
        block_plain_allowed = false;
        single_quoted_allowed = false;
        block_allowed = false;
    }
    if line_breaks || block_indicators {
        block_plain_allowed = false;
    }
    Analysis {
        block_plain_allowed,
        single_quoted_allowed,
        block_allowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(value: &Value) -> String {
        marshal(value.as_object().expect("a mapping")).expect("marshal")
    }

    #[test]
    fn strings_are_plain_unless_they_would_read_back_otherwise_or_libyaml_forbids_it() {
        let one = |s: &str| yaml(&json!({ "k": s }));
        assert_eq!(one("vcenter.example.com"), "k: vcenter.example.com\n");
        assert_eq!(one("10.0.0.1"), "k: 10.0.0.1\n");
        assert_eq!(one("10.0.0.0/24"), "k: 10.0.0.0/24\n");
        assert_eq!(one("DC 1"), "k: DC 1\n");
        assert_eq!(one("a:b"), "k: a:b\n");
        assert_eq!(one("DC#1"), "k: DC#1\n");
        assert_eq!(one(""), "k: \"\"\n");
        assert_eq!(one("yes"), "k: \"yes\"\n");
        assert_eq!(one("true"), "k: \"true\"\n");
        assert_eq!(one("null"), "k: \"null\"\n");
        assert_eq!(one("~"), "k: \"~\"\n");
        assert_eq!(one("*ref"), "k: '*ref'\n");
        assert_eq!(one("[a]"), "k: '[a]'\n");
        assert_eq!(one("123"), "k: \"123\"\n");
        assert_eq!(one("0x1F"), "k: \"0x1F\"\n");
        assert_eq!(one("1e5"), "k: \"1e5\"\n");
        assert_eq!(one("1:20"), "k: \"1:20\"\n");
        assert_eq!(one("2001-12-14"), "k: \"2001-12-14\"\n");
        assert_eq!(one("a: b"), "k: 'a: b'\n");
        assert_eq!(one("- a"), "k: '- a'\n");
        assert_eq!(one(" lead"), "k: ' lead'\n");
        assert_eq!(one("it's #1"), "k: 'it''s #1'\n");
        assert_eq!(one("tab\there"), "k: \"tab\\there\"\n");
        assert_eq!(one("Zürich"), "k: Zürich\n");
        assert_eq!(one("a\nb"), "k: |-\n  a\n  b\n");
    }

    #[test]
    fn long_plain_strings_fold_at_a_space_past_column_80() {
        let long = format!("{} tail", "x".repeat(80));
        assert_eq!(
            yaml(&json!({ "key": long })),
            format!("key: {}\n  tail\n", "x".repeat(80))
        );
    }

    #[test]
    fn structure_is_yaml_v2_block_style() {
        let value = json!({
            "global": {"insecureFlag": true, "port": 0, "list": []},
            "vcenter": {"a": {"datacenters": ["DC1", "DC2"]}},
            "empty": {},
        });
        assert_eq!(
            yaml(&value),
            "global:\n  insecureFlag: true\n  port: 0\n  list: []\nvcenter:\n  a:\n    datacenters:\n    - DC1\n    - DC2\nempty: {}\n"
        );
    }

    #[test]
    fn keys_sort_as_yaml_v2_sorts_them() {
        let mut keys = vec!["vc10", "vc9", "b", "A", "_x", "10.0.0.10", "10.0.0.9", "a"];
        keys.sort_by(|a, b| key_order(a, b));
        assert_eq!(
            keys,
            ["_x", "10.0.0.9", "10.0.0.10", "A", "a", "b", "vc9", "vc10"]
        );
    }
}
