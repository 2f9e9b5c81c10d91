//! The value types of gcfg (gopkg.in/gcfg.v1, `types/bool.go` and `types/int.go`), the INI
//! decoder the AWS and legacy vSphere cloud providers read their config with: what a value in
//! [`super::ini`] means as a bool or a number.

/// gcfg `types.ParseBool`: true/yes/on/1 and false/no/off/0, without case.
pub(crate) fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// gcfg's default for Go signed ints: decimal, or hexadecimal with a `0x` prefix, with a sign.
pub(crate) fn parse_int(value: &str) -> Option<i64> {
    let (negative, digits) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let parsed = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16),
        None => digits.parse::<i64>(),
    };
    parsed.ok().map(|n| if negative { -n } else { n })
}

/// gcfg's default for Go unsigned ints: decimal (an optional `+`), or hexadecimal with `0x`.
pub(crate) fn parse_uint(value: &str) -> Option<u64> {
    match value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => value.strip_prefix('+').unwrap_or(value).parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans_take_gcfg_words_without_case() {
        assert_eq!(parse_bool("Yes"), Some(true));
        assert_eq!(parse_bool("OFF"), Some(false));
        assert_eq!(parse_bool("2"), None);
    }

    #[test]
    fn numbers_take_a_sign_and_hexadecimal() {
        assert_eq!(parse_int("-0x10"), Some(-16));
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("x"), None);
        assert_eq!(parse_uint("0X1f"), Some(31));
        assert_eq!(parse_uint("+3"), Some(3));
        assert_eq!(parse_uint("-3"), None);
    }
}
