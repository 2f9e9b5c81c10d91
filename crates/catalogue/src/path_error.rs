//! A decoding error and the path of the field it is about (`status.platformStatus[0].type`, or
//! `.` for the whole value), as `serde_path_to_error` words the path and serde_json words the
//! message: the error of this crate's decoder ([`crate::msgpack::decoder`]) and of the
//! install-config's.
//!
//! The decoders gather the path on the way out: each map value and list item wraps an error
//! that passes through it with its key or index ([`PathError::within`]), so a value that
//! decodes costs nothing for the path.

use serde::de;

/// A decoding error and the path of the field it is about. Boxed, as serde_json boxes its
/// error: every value a decoder returns is a `Result` with this error, and one pointer wide
/// it costs each record's decoding less code to move around.
#[derive(Debug)]
pub struct PathError(Box<Inner>);

#[derive(Debug)]
struct Inner {
    /// The segments, innermost first.
    rev_path: Vec<Segment>,
    message: String,
}

/// One step of a path.
#[derive(Debug)]
enum Segment {
    /// A map's key, a struct's field or an enum's variant.
    Key(String),
    /// A list's item.
    Index(usize),
}

impl PathError {
    /// The path of the field: keys joined by `.`, list items as `[i]`, `.` for the whole value.
    pub fn path(&self) -> String {
        if self.0.rev_path.is_empty() {
            return ".".to_string();
        }
        // serde_path_to_error's `Path` display: a key after any segment takes a dot, so an
        // empty first key still shows (`.port`).
        let mut out = String::new();
        let mut separator = "";
        for segment in self.0.rev_path.iter().rev() {
            match segment {
                Segment::Key(key) => {
                    out.push_str(separator);
                    out.push_str(key);
                }
                Segment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
            separator = ".";
        }
        out
    }

    /// The error without its path.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The error, seen from the value that holds the one it is about at `segment`.
    #[must_use]
    fn within(mut self, segment: Segment) -> Self {
        self.0.rev_path.push(segment);
        self
    }

    /// [`PathError::within`] a map's entry or a variant. Out of line and cold: a decoder
    /// wraps the error of every field it reads, and the code to do so, repeated at each
    /// field of each record, would be most of the record's decoding.
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn within_key(self, key: &str) -> Self {
        self.within(Segment::Key(key.to_owned()))
    }

    /// [`PathError::within`] a list's item, likewise out of line.
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn within_index(self, index: usize) -> Self {
        self.within(Segment::Index(index))
    }

    /// The error of a value read from `origin` (a file, or what stands for one), as one
    /// `anyhow` error: the message, in the context of the origin and the field's path
    /// (`infrastructure.yaml: status.platformStatus.type`, or the origin alone for the whole
    /// value). The path holds keys from the input: it is quoted when it holds a line break or
    /// another control character, so that a key can never forge a line of its own.
    pub fn located(self, origin: &str) -> anyhow::Error {
        let field = self.path();
        let field = if field.chars().any(char::is_control) {
            format!("{field:?}")
        } else {
            field
        };
        let place = if field == "." {
            origin.to_string()
        } else {
            format!("{origin}: {field}")
        };
        anyhow::Error::new(self).context(place)
    }

    fn from_json(err: &serde_json::Error) -> Self {
        <Self as de::Error>::custom(err)
    }
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for PathError {}

impl de::Error for PathError {
    fn custom<M: std::fmt::Display>(message: M) -> Self {
        Self(Box::new(Inner {
            rev_path: Vec::new(),
            message: message.to_string(),
        }))
    }

    // serde_json's words for what was found (`null`, not serde's `unit value`), as its own
    // decoder gives them.
    fn invalid_type(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        Self::from_json(&<serde_json::Error as de::Error>::invalid_type(
            unexpected, expected,
        ))
    }

    fn invalid_value(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        Self::from_json(&<serde_json::Error as de::Error>::invalid_value(
            unexpected, expected,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::Error as _;

    #[test]
    fn a_path_joins_keys_with_dots_and_puts_indices_in_brackets() {
        let err = PathError::custom("bad")
            .within(Segment::Key("type".into()))
            .within(Segment::Index(0))
            .within(Segment::Key("platformStatus".into()))
            .within(Segment::Key("status".into()));
        assert_eq!(err.path(), "status.platformStatus[0].type");
        assert_eq!(PathError::custom("bad").path(), ".");
        let list = PathError::custom("bad").within(Segment::Index(2));
        assert_eq!(list.path(), "[2]");
        let empty_key = PathError::custom("bad")
            .within(Segment::Key("port".into()))
            .within(Segment::Key(String::new()));
        assert_eq!(empty_key.path(), ".port");
    }

    #[test]
    fn a_located_error_names_the_origin_and_the_field() {
        let err = PathError::custom("invalid type: integer `3`, expected a string")
            .within(Segment::Key("name".into()));
        assert_eq!(
            format!("{:#}", err.located("a.yaml")),
            "a.yaml: name: invalid type: integer `3`, expected a string"
        );
        let whole = PathError::custom("missing field `kind`").located("a.yaml");
        assert_eq!(format!("{whole:#}"), "a.yaml: missing field `kind`");
        let forged = PathError::custom("bad")
            .within(Segment::Key("a\nerror: forged".into()))
            .located("a.yaml");
        assert_eq!(format!("{forged:#}"), "a.yaml: \"a\\nerror: forged\": bad");
    }
}
