//! The HostedCluster CRD's `required` fields and `minProperties` of every object under `spec`,
//! as the API server's schema validation refuses a HostedCluster without them, after the CRD's
//! defaults (`autoNode: {}` without its `provisionerConfig`, `etcd.managed` without its `storage`,
//! `monitoring: {}`). `crd_required.txt` is generated from HyperShift's
//! `cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/
//! hostedclusters-Hypershift-Default.crd.yaml` at 3ee96155 (its header says how to read it).

use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

const TABLE: &str = include_str!("crd_required.txt");

/// What one object of the schema requires.
struct Rule {
    required: Vec<&'static str>,
    min_properties: Option<usize>,
}

struct Rules {
    by_path: HashMap<&'static str, Rule>,
    /// Every prefix of a path with a rule: where the walk goes on.
    prefixes: HashSet<&'static str>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut by_path = HashMap::new();
        let mut prefixes = HashSet::new();
        for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
            let mut words = line.split(' ');
            let path = words.next().unwrap_or_default();
            let mut rule = Rule {
                required: Vec::new(),
                min_properties: None,
            };
            for word in words {
                match word.strip_prefix("min=") {
                    Some(n) => rule.min_properties = n.parse().ok(),
                    None => rule.required.push(word),
                }
            }
            for (i, c) in path.char_indices() {
                if matches!(c, '.' | '[' | '{') {
                    prefixes.insert(&path[..i]);
                }
            }
            prefixes.insert(path);
            by_path.insert(path, rule);
        }
        Rules { by_path, prefixes }
    })
}

/// The first object under `spec` that lacks a field its schema requires or has fewer
/// properties than it must: `(field, problem)`.
pub(crate) fn first_missing(spec: &Value) -> Option<(String, String)> {
    walk(spec, "spec", "spec".to_string(), rules())
}

fn walk(value: &Value, pattern: &str, at: String, rules: &Rules) -> Option<(String, String)> {
    match value {
        Value::Object(map) => {
            if let Some(rule) = rules.by_path.get(pattern) {
                for field in &rule.required {
                    if map.get(*field).is_none_or(Value::is_null) {
                        return Some((format!("{at}.{field}"), "Required value".into()));
                    }
                }
                if let Some(least) = rule.min_properties
                    && map.len() < least
                {
                    return Some((
                        at,
                        format!("must have at least {least} properties, has {}", map.len()),
                    ));
                }
            }
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for key in keys {
                for child in [format!("{pattern}.{key}"), format!("{pattern}{{}}")] {
                    if rules.prefixes.contains(child.as_str())
                        && let Some(found) = walk(&map[key], &child, format!("{at}.{key}"), rules)
                    {
                        return Some(found);
                    }
                }
            }
            None
        }
        Value::Array(items) => {
            let child = format!("{pattern}[]");
            if !rules.prefixes.contains(child.as_str()) {
                return None;
            }
            items
                .iter()
                .enumerate()
                .find_map(|(i, item)| walk(item, &child, format!("{at}[{i}]"), rules))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::first_missing;
    use serde_json::json;

    #[test]
    fn required_fields_and_least_properties_are_found_where_the_schema_puts_them() {
        let whole = json!({"etcd": {"managementType": "Managed"}, "networking": {}, "platform": {"type": "AWS"}, "pullSecret": {}, "release": {"image": "x"}, "services": []});
        assert_eq!(first_missing(&whole), None);
        let mut spec = whole.clone();
        spec["autoNode"] = json!({});
        assert_eq!(
            first_missing(&spec),
            Some((
                "spec.autoNode.provisionerConfig".into(),
                "Required value".into()
            ))
        );
        let mut spec = whole.clone();
        spec["monitoring"] = json!({});
        assert_eq!(
            first_missing(&spec).map(|f| f.0),
            Some("spec.monitoring".into())
        );
        let mut spec = whole.clone();
        spec["services"] = json!([{"service": "APIServer"}]);
        assert_eq!(
            first_missing(&spec).map(|f| f.0),
            Some("spec.services[0].servicePublishingStrategy".into())
        );
        let mut spec = whole;
        spec.as_object_mut().expect("object").remove("release");
        assert_eq!(
            first_missing(&spec).map(|f| f.0),
            Some("spec.release".into())
        );
    }
}
