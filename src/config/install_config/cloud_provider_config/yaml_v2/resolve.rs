//! yaml.v2's `resolve` (`resolve.go`) and `isBase60Float` (`encode.go`) for the strings
//! ccm-render writes: whether a string written plain would read back as a string. yaml.v2
//! double-quotes one that would not.

/// yaml.v2's `resolve` gives `!!str` for the text written plain, and it is no base-60 float
/// (`isBase60Float`, `1:20`): the YAML 1.1 words, numbers of every base Go parses, floats,
/// timestamps and `<<` read back as something else.
pub(super) fn reads_back_as_string(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true",
        "True", "TRUE", "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    if WORDS.contains(&text) {
        return false;
    }
    match text.as_bytes().first() {
        Some(b'.') => !is_go_float(text),
        Some(b'0'..=b'9' | b'+' | b'-') => {
            let plain = text.replace('_', "");
            !(is_timestamp(text)
                || is_go_int(&plain)
                || is_yaml_float(&plain)
                || is_binary(&plain)
                || is_base60_float(text))
        }
        _ => true,
    }
}

/// `strconv.ParseFloat` of a string starting with `.`: `.5`, `.5e3`.
fn is_go_float(text: &str) -> bool {
    is_yaml_float(text)
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$` (yaml.v2's `yamlStyleFloat`), and
/// `strconv.ParseFloat` accepts it without overflowing.
fn is_yaml_float(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    mantissa_ok && exponent_ok && text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)`: a sign (ParseInt only), then `0x`,
/// `0o`, `0b`, a leading `0` (octal) or decimal digits, in range.
fn is_go_int(text: &str) -> bool {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    match u64::from_str_radix(digits, radix) {
        Ok(v) if negative => v <= 1 << 63,
        Ok(_) => true,
        Err(_) => false,
    }
}

/// yaml.v2's `0b`/`-0b` binary integers (already covered by `ParseInt` with base 0; kept for
/// the `-0b` spelling, which is the same).
fn is_binary(text: &str) -> bool {
    let digits = text.strip_prefix("0b").or_else(|| text.strip_prefix("-0b"));
    digits.is_some_and(|d| {
        !d.is_empty() && d.len() <= 64 && d.bytes().all(|b| b == b'0' || b == b'1')
    })
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (main, frac) = match body.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (body, None),
    };
    let mut parts = main.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && head.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let mut sexagesimal = 0;
    for part in parts {
        let ok = match part.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
        sexagesimal += 1;
    }
    head_ok
        && sexagesimal > 0
        && frac.is_none_or(|f| f.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
}

/// yaml.v2's `parseTimestamp`: four digits and `-` first, then one of Go's layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (`T` or `t`), `2006-1-2 15:4:5.999999999`, `2006-1-2`.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let (date, rest) = match text.find(['T', 't', ' ']) {
        Some(at) => (&text[..at], Some((text.as_bytes()[at], &text[at + 1..]))),
        None => (text, None),
    };
    let mut fields = date.split('-');
    let (Some(year_text), Some(month_text), Some(day_text), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return false;
    };
    let number = |s: &str, max_len: usize| {
        (!s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (
        number(year_text, 4),
        number(month_text, 2),
        number(day_text, 2),
    ) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days {
        return false;
    }
    let Some((separator, time)) = rest else {
        return true;
    };
    // `15:4:5`, then an optional fraction, then the zone: required after `T`, absent after a
    // space.
    let zone_at = time.find(['Z', '+', '-']).unwrap_or(time.len());
    let (clock, zone) = time.split_at(zone_at);
    let (hms, fraction) = match clock.split_once('.') {
        Some((h, f)) => (h, Some(f)),
        None => (clock, None),
    };
    let mut parts = hms.split(':');
    let (Some(hour), Some(minute), Some(second), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let clock_ok = number(hour, 2).is_some_and(|v| v < 24)
        && number(minute, 2).is_some_and(|v| v < 60)
        && number(second, 2).is_some_and(|v| v < 60)
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    let zone_ok = if separator == b' ' {
        zone.is_empty()
    } else {
        zone == "Z" || {
            let z = zone.as_bytes();
            z.len() == 6
                && matches!(z[0], b'+' | b'-')
                && z[1..3].iter().all(u8::is_ascii_digit)
                && z[3] == b':'
                && z[4..].iter().all(u8::is_ascii_digit)
        }
    };
    clock_ok && zone_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_reads_back_as_something_else() {
        for other in [
            "",
            "~",
            "yes",
            "Off",
            "<<",
            "123",
            "-1",
            "+1",
            "0x1F",
            "0o17",
            "017",
            "0b101",
            "1_000",
            "1e5",
            "1.5",
            ".5",
            "1:20",
            "2001-12-14",
            "2001-12-14T21:59:43.10Z",
            "2001-12-14 21:59:43",
            "99999999999999999999",
        ] {
            assert!(!reads_back_as_string(other), "{other:?}");
        }
        for string in [
            "10.0.0.1",
            "10.0.0.0/24",
            "vcenter",
            "1.2.3",
            "-",
            ".x",
            "2001-13-14",
            "1:60",
            "2001-12-14T21:59:43",
            "DC1",
            "0x",
        ] {
            assert!(reads_back_as_string(string), "{string:?}");
        }
    }
}
