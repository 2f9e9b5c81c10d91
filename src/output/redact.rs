//! What `render --diff` may show of a file: credentials are replaced before any text reaches
//! stdout. Pure functions; the diff module calls [`for_display`] on both the old and the new
//! text of every file, so a secret that is only in the output directory is hidden too.
//!
//! Three rules, from the coarsest to the finest:
//! 1. a file under `secrets/` (the raw credential files of `--credentials`) is never shown;
//! 2. in a YAML file, every value under `data` and `stringData` of a `Secret` is replaced;
//! 3. in any text, including cloud configs embedded in ConfigMaps, the value of a key in
//!    [`CREDENTIAL_KEYS`] is replaced, whether it is written as INI (`key = value`), YAML
//!    (`key: value`) or JSON (`"key": "value"`).

use serde_json::Value;

/// What replaces a redacted value.
pub(crate) const REDACTED: &str = "<redacted>";

/// The folder whose files are never shown (CLI contract: `DIR/secrets/`, mode 0600).
pub(crate) const SECRETS_FOLDER: &str = "secrets";

/// Keys whose value is a credential, compared after lower-casing and dropping `-`, `_` and `.`
/// (so `aadClientSecret`, `aad-client-secret` and `AAD_CLIENT_SECRET` are one key). Where each
/// comes from:
/// * Azure / Azure Stack Hub cloud.conf (cloud-provider-azure `AzureAuthConfig`):
///   `aadClientSecret`, `aadClientCertPassword`;
/// * OpenStack cloud.conf `[Global]` and clouds.yaml `auth` (gophercloud): `password`,
///   `application-credential-secret`, `token`;
/// * vSphere cloud.conf `[Global]`/`[VirtualCenter]` and YAML `vcenter`: `password`;
/// * AWS shared credentials: `aws_secret_access_key`, `aws_session_token`;
/// * GCP service account JSON: `private_key`;
/// * IBM Cloud / PowerVS: `apikey`, `ibmcloud_api_key`;
/// * generic OAuth / kubeconfig style: `client-secret`, `client-key-data`.
///
/// Exact names rather than substrings: `secret-name` and `secret-namespace` (OpenStack, vSphere)
/// name where a credential lives and are useful to see in a diff.
pub(crate) const CREDENTIAL_KEYS: &[&str] = &[
    "aadclientsecret",
    "aadclientcertpassword",
    "password",
    "applicationcredentialsecret",
    "token",
    "clientsecret",
    "clientkeydata",
    "secretaccesskey",
    "awssecretaccesskey",
    "sessiontoken",
    "awssessiontoken",
    "privatekey",
    "apikey",
    "ibmcloudapikey",
];

/// Whether `key` names a credential (see [`CREDENTIAL_KEYS`]).
pub(crate) fn is_credential_key(key: &str) -> bool {
    let normal: String = key
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    CREDENTIAL_KEYS.contains(&normal.as_str())
}

/// Whether no part of the file at `path` may be shown. `path` is relative to `--dest-dir`, or a
/// node path of an `--ignition` config (with or without its leading `/`). Shown are only the
/// files this tool writes that hold no raw credential: those under `bootstrap/`, `config/`,
/// `manifests/` and their places on the node ([`crate::output::placement::MAP`]). Hidden are `secrets/`,
/// its place on the node, and any other path, which can only come from an existing Ignition
/// config given as `--ignition` (a whole `bootstrap.ign` holds private keys).
pub(crate) fn is_hidden(path: &str) -> bool {
    hidden_reason(path).is_some()
}

/// What a diff says instead of the contents of a hidden `path` (see [`is_hidden`]).
pub(crate) fn hidden_reason(path: &str) -> Option<String> {
    let first = path.split('/').next().unwrap_or_default();
    let credentials =
        |folder: &str| format!("contents redacted: files under {folder}/ hold credentials");
    if first == SECRETS_FOLDER {
        return Some(credentials(SECRETS_FOLDER));
    }
    if crate::output::placement::MAP
        .iter()
        .any(|p| p.source == first)
    {
        return None;
    }
    let node_path = format!("/{}", path.trim_start_matches('/'));
    match crate::output::placement::MAP
        .iter()
        .find(|p| node_path.starts_with(&format!("{}/", p.target)))
    {
        Some(p) if p.source == SECRETS_FOLDER => Some(credentials(p.target)),
        Some(_) => None,
        None => Some("contents redacted: not a path ccm-render writes".to_string()),
    }
}

/// The text of a file as a diff may show it. `None` when no part of it may be shown (a file under
/// `secrets/`, or text that is not UTF-8).
pub(crate) fn for_display(path: &str, bytes: &[u8]) -> Option<String> {
    if is_hidden(path) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let is_yaml = std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    Some(if is_yaml {
        yaml_file(text)
    } else {
        text_lines(text)
    })
}

/// Redacts each document of a YAML stream. A document that parses and needed redacting is shown
/// re-serialised with the values replaced (a Secret's data can be a block scalar or a flow
/// mapping, which no line rule sees whole); every other document keeps its text byte for byte,
/// after the line rules.
fn yaml_file(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (index, document) in split_documents(text).into_iter().enumerate() {
        if index > 0 {
            out.push_str("---\n");
        }
        out.push_str(&yaml_document(document));
    }
    out
}

/// Splits at `---` lines, keeping each document's text (without the separator).
fn split_documents(text: &str) -> Vec<&str> {
    let mut documents = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "---" {
            documents.push(&text[start..offset]);
            start = offset + line.len();
        }
        offset += line.len();
    }
    documents.push(&text[start..]);
    if documents.first().is_some_and(|d| d.trim().is_empty()) && documents.len() > 1 {
        documents.remove(0);
    }
    documents
}

fn yaml_document(text: &str) -> String {
    let parsed = ccm_catalogue::yaml::documents(text)
        .ok()
        .and_then(|mut docs| if docs.len() == 1 { docs.pop() } else { None });
    let Some(mut value) = parsed else {
        // Unparsable: a Secret here cannot be redacted field by field, so not at all.
        if text
            .lines()
            .any(|l| l.trim_start().starts_with("kind:") && l.contains("Secret"))
        {
            return format!("# {REDACTED}: a Secret that does not parse as YAML\n");
        }
        return text_lines(text);
    };
    let before = value.clone();
    redact_value(&mut value);
    if value == before {
        return text_lines(text);
    }
    ccm_catalogue::yaml::to_string(&value)
        .unwrap_or_else(|_| format!("# {REDACTED}: a document holding credentials\n"))
}

/// Replaces Secret data values, credential keys and credential lines inside strings.
fn redact_value(value: &mut Value) {
    let is_secret = value.get("kind").and_then(Value::as_str) == Some("Secret");
    if let Some(map) = value.as_object_mut() {
        for (key, child) in map.iter_mut() {
            if is_secret && (key == "data" || key == "stringData") {
                if let Some(entries) = child.as_object_mut() {
                    for entry in entries.values_mut() {
                        *entry = Value::String(REDACTED.into());
                    }
                } else if !child.is_null() {
                    *child = Value::String(REDACTED.into());
                }
            } else if is_credential_key(key) && !child.is_null() {
                *child = Value::String(REDACTED.into());
            } else {
                redact_value(child);
            }
        }
    } else if let Some(items) = value.as_array_mut() {
        items.iter_mut().for_each(redact_value);
    } else if let Some(text) = value.as_str() {
        let redacted = text_lines(text);
        if redacted != text {
            *value = Value::String(redacted);
        }
    }
}

/// Applies the credential-key rule line by line, keeping everything else byte for byte. A YAML
/// block scalar (`password: |`) is a value too: its more indented lines are dropped.
fn text_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut block_indent: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let indent = body.len() - body.trim_start().len();
        if let Some(key_indent) = block_indent {
            if body.trim().is_empty() || indent > key_indent {
                continue;
            }
            block_indent = None;
        }
        let redacted = redact_line(body);
        if redacted != body {
            let value = body.split_once(':').map_or("", |(_, v)| v.trim());
            if value.starts_with('|') || value.starts_with('>') {
                block_indent = Some(indent);
            }
        }
        out.push_str(&redacted);
        out.push_str(newline);
    }
    out
}

/// One line: `key = value` / `key: value` (INI, YAML, `- key: value` in a list) as a whole, and
/// every `"key": value` pair of JSON written on the line.
fn redact_line(line: &str) -> String {
    let json = redact_json_pairs(line);
    if json != line {
        return json;
    }
    let line = json;
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    let (item, rest) = match trimmed.strip_prefix("- ") {
        Some(rest) => ("- ", rest),
        None => ("", trimmed),
    };
    let Some(at) = rest.find(['=', ':']) else {
        return line;
    };
    let key = rest[..at].trim().trim_matches(['"', '\'']);
    let value = rest[at + 1..].trim();
    if is_credential_key(key) && !value.is_empty() {
        let separator = &rest[at..=at];
        let spaced = if separator == "=" { " = " } else { ": " };
        return format!("{indent}{item}{}{spaced}{REDACTED}", rest[..at].trim_end());
    }
    line
}

/// `"key": "value"` (or a number or literal) on a JSON line, wherever it is on the line.
fn redact_json_pairs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('"') {
        let Some(close) = rest[open + 1..].find('"').map(|i| open + 1 + i) else {
            break;
        };
        let key = &rest[open + 1..close];
        let after = &rest[close + 1..];
        let gap = after.len() - after.trim_start().len();
        let Some(value) = after.trim_start().strip_prefix(':') else {
            out.push_str(&rest[..=close]);
            rest = &rest[close + 1..];
            continue;
        };
        if !is_credential_key(key) {
            out.push_str(&rest[..=close]);
            rest = &rest[close + 1..];
            continue;
        }
        let value_gap = value.len() - value.trim_start().len();
        let value = value.trim_start();
        let value_len = json_scalar_len(value);
        out.push_str(&rest[..=close]);
        out.push_str(&after[..gap]);
        out.push(':');
        out.push_str(&" ".repeat(value_gap.min(1)));
        out.push('"');
        out.push_str(REDACTED);
        out.push('"');
        rest = &value[value_len..];
    }
    out.push_str(rest);
    out
}

/// Length of the JSON scalar at the start of `text`: a string with its escapes, or everything up
/// to the next `,`, `}` or `]`.
fn json_scalar_len(text: &str) -> usize {
    if let Some(body) = text.strip_prefix('"') {
        let mut escaped = false;
        for (i, c) in body.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => return i + 2,
                _ => {}
            }
        }
        return text.len();
    }
    text.find([',', '}', ']']).unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(path: &str, text: &str) -> String {
        for_display(path, text.as_bytes()).expect("shown")
    }

    #[test]
    fn credential_keys_match_in_any_spelling() {
        for key in [
            "aadClientSecret",
            "AAD_CLIENT_SECRET",
            "application-credential-secret",
            "Password",
            "aws_secret_access_key",
        ] {
            assert!(is_credential_key(key), "{key}");
        }
        for key in ["secret-name", "secret-namespace", "aadClientId", "user"] {
            assert!(!is_credential_key(key), "{key}");
        }
    }

    #[test]
    fn files_under_secrets_are_never_shown() {
        assert_eq!(for_display("secrets/clouds.yaml", b"a: b\n"), None);
        assert_eq!(
            for_display("/etc/kubernetes/bootstrap-secrets/clouds.yaml", b"a: b\n"),
            None
        );
        assert_eq!(
            for_display("etc/kubernetes/bootstrap-secrets/k", b"a\n"),
            None
        );
        assert_eq!(for_display("etc/pki/tls/private/key.pem", b"a\n"), None);
        assert!(for_display("etc/kubernetes/bootstrap-configs/cloud.conf", b"a\n").is_some());
        assert!(for_display("opt/openshift/manifests/a.yaml", b"a: b\n").is_some());
        assert!(for_display("config/secrets.conf", b"a\n").is_some());
    }

    #[test]
    fn ini_yaml_and_json_credential_values_are_replaced() {
        let ini = "[Global]\nusername = admin\npassword = hunter2\nsecret-name = x\n";
        assert_eq!(
            shown("config/cloud.conf", ini),
            "[Global]\nusername = admin\npassword = <redacted>\nsecret-name = x\n"
        );
        let json = "{\n  \"aadClientId\": \"id\",\n  \"aadClientSecret\": \"s3\\\"cret\",\n  \"x\": 1\n}\n";
        assert_eq!(
            shown("config/cloud.conf", json),
            "{\n  \"aadClientId\": \"id\",\n  \"aadClientSecret\": \"<redacted>\",\n  \"x\": 1\n}\n"
        );
        let one_line = r#"{"password":"p","user":"u","token":42}"#;
        assert_eq!(
            shown("config/x.json", one_line),
            r#"{"password":"<redacted>","user":"u","token":"<redacted>"}"#
        );
        let yaml =
            "global:\n  user: u\n  password: 'p'\n  token: |\n    line1\n\n    line2\n  port: 1\n";
        assert_eq!(
            shown("config/cloud.conf", yaml),
            "global:\n  user: u\n  password: <redacted>\n  token: <redacted>\n  port: 1\n"
        );
    }

    #[test]
    fn secret_data_is_replaced_and_other_documents_keep_their_text() {
        let text = "kind: ConfigMap\ndata:\n  a:   spaced\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  key: aHVudGVyMg==\nstringData: {other: hunter2}\n";
        let out = shown("manifests/x.yaml", text);
        assert!(
            out.starts_with("kind: ConfigMap\ndata:\n  a:   spaced\n---\n"),
            "{out}"
        );
        assert!(
            !out.contains("hunter2") && !out.contains("aHVudGVyMg"),
            "{out}"
        );
        assert!(out.contains("key: <redacted>"), "{out}");
    }

    #[test]
    fn cloud_config_inside_a_config_map_is_redacted() {
        let text = "kind: ConfigMap\ndata:\n  cloud.conf: \"[Global]\\npassword = hunter2\\n\"\n";
        let out = shown("manifests/configmap-cloud-conf.yaml", text);
        assert!(!out.contains("hunter2"), "{out}");
        assert!(out.contains("password = <redacted>"), "{out}");
    }

    #[test]
    fn an_unparsable_secret_is_hidden_whole() {
        let out = shown("manifests/x.yaml", "kind: Secret\ndata: [hunter2\n");
        assert!(!out.contains("hunter2"), "{out}");
    }
}
