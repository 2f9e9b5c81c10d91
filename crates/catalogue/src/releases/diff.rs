//! Writing a delta: the edits ([`Op`]) that turn a newer release's objects into an older
//! release's, in the form a person writes them in `assets/releases/<X.Y>.yaml` — a field
//! removed or set, a list item (picked by `name`, `path` or its string) removed or appended
//! before its successor, a line of a container's script removed or inserted. Where an object
//! cannot be edited that finely (a list whose items have no unique name, keys in another order,
//! a field name holding a `.`), the smallest enclosing field is set whole. Every edit list is
//! checked by applying it ([`super::delta::apply_ops`]) and comparing the result, key order
//! included, with the older object; what no edit list can express (an object only the older
//! release has, objects in another order) is an error. Pure.

use super::delta::{ObjectPatch, Op, apply_ops, object_id};
use crate::script::Script;
use anyhow::{Context as _, Result, bail};
use serde_json::Value;
use std::collections::BTreeSet;

/// How one provider's manifests differ from the next release's: the objects to remove and
/// the edits of the others.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ManifestDelta {
    /// `Kind/name` of each object the newer release has and the older one does not.
    pub remove: Vec<String>,
    /// The edits of each object both have that differs.
    pub patch: Vec<ObjectPatch>,
}

/// The delta that takes `newer` (a provider's manifests in the next release) to `older`.
pub fn manifests_delta(newer: &[Value], older: &[Value]) -> Result<ManifestDelta> {
    let newer_ids: Vec<String> = newer.iter().map(object_id).collect();
    let older_ids: Vec<String> = older.iter().map(object_id).collect();
    if let Some(added) = older_ids.iter().find(|id| !newer_ids.contains(id)) {
        bail!(
            "{added}: the older release has it and the newer one does not; a delta removes and edits the newer release's objects, it cannot add one"
        );
    }
    let kept: Vec<&String> = newer_ids
        .iter()
        .filter(|id| older_ids.contains(id))
        .collect();
    if kept.iter().copied().ne(older_ids.iter()) {
        bail!(
            "the objects are in another order than the newer release's ({}); a delta keeps the newer release's order",
            older_ids.join(", ")
        );
    }
    let mut delta = ManifestDelta::default();
    for (id, object) in newer_ids.iter().zip(newer) {
        match older_ids.iter().position(|o| o == id) {
            None => delta.remove.push(id.clone()),
            Some(at) => {
                let ops = object_ops(object, &older[at]).with_context(|| id.clone())?;
                if !ops.is_empty() {
                    delta.patch.push(ObjectPatch {
                        object: id.clone(),
                        ops,
                    });
                }
            }
        }
    }
    Ok(delta)
}

/// The edits that turn `newer` into `older` (two versions of one object), none when they are
/// the same, key order included.
pub(crate) fn object_ops(newer: &Value, older: &Value) -> Result<Vec<Op>> {
    if same(newer, older) {
        return Ok(Vec::new());
    }
    let mut fine = Vec::new();
    if diff("", newer, older, &mut fine) && reaches(newer, &fine, older) {
        return Ok(fine);
    }
    let coarse = top_level_ops(newer, older);
    if reaches(newer, &coarse, older) {
        return Ok(coarse);
    }
    bail!(
        "cannot be written as edits of the newer release's object (its top-level fields are in another order)"
    )
}

/// Whether applying `ops` to `from` gives `to`, key order included.
fn reaches(from: &Value, ops: &[Op], to: &Value) -> bool {
    let mut value = from.clone();
    apply_ops(&mut value, ops).is_ok() && same(&value, to)
}

/// Equal, key order included (`Value`'s own equality ignores the order of a mapping's keys,
/// which the rendered YAML keeps).
fn same(a: &Value, b: &Value) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// Each top-level field that differs, removed or set whole.
fn top_level_ops(newer: &Value, older: &Value) -> Vec<Op> {
    let (Some(new), Some(old)) = (newer.as_object(), older.as_object()) else {
        return Vec::new();
    };
    let mut ops: Vec<Op> = new
        .keys()
        .filter(|k| !old.contains_key(*k))
        .map(|k| Op::Remove(k.clone()))
        .collect();
    for (key, value) in old {
        if new.get(key).is_none_or(|v| !same(v, value)) {
            ops.push(set(key, value));
        }
    }
    ops
}

fn set(path: &str, value: &Value) -> Op {
    Op::Set {
        path: path.to_string(),
        value: value.clone(),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A field name a path can hold.
fn addressable_key(key: &str) -> bool {
    !key.is_empty() && !key.contains(['.', '[', ']'])
}

/// Pushes the edits that turn `new` into `old` at `path` ("" for the object itself); false when
/// they cannot be written at this level, for the caller to set the field whole.
fn diff(path: &str, new: &Value, old: &Value, ops: &mut Vec<Op>) -> bool {
    if same(new, old) {
        return true;
    }
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            if !n.keys().chain(o.keys()).all(|k| addressable_key(k)) {
                return false;
            }
            // A field set anew goes last: the older keys must be the kept ones, in their
            // order, then the new ones.
            let kept: Vec<&String> = n.keys().filter(|k| o.contains_key(*k)).collect();
            let added: Vec<&String> = o.keys().filter(|k| !n.contains_key(*k)).collect();
            if kept.iter().chain(&added).copied().ne(o.keys()) {
                return false;
            }
            for key in n.keys().filter(|k| !o.contains_key(*k)) {
                ops.push(Op::Remove(join(path, key)));
            }
            for key in &kept {
                let at = join(path, key);
                if !diff(&at, &n[*key], &o[*key], ops) {
                    ops.push(set(&at, &o[*key]));
                }
            }
            for key in added {
                ops.push(set(&join(path, key), &o[key]));
            }
            true
        }
        (Value::Array(n), Value::Array(o)) if !path.is_empty() && !path.ends_with(']') => {
            script_ops(path, n, o, ops) || list_ops(path, n, o, ops)
        }
        _ => false,
    }
}

/// The key `[x]` picks an item by ([`super::delta`]'s `position`): a string item itself, else
/// its `name`, else its `path`.
fn item_key(item: &Value) -> Option<&str> {
    let key = match item {
        Value::String(s) => s.as_str(),
        Value::Object(map) => match (map.get("name"), map.get("path")) {
            (Some(name), _) => name.as_str()?,
            (None, Some(path)) => path.as_str()?,
            (None, None) => return None,
        },
        _ => return None,
    };
    (!key.is_empty() && !key.contains([']', '\n'])).then_some(key)
}

/// Every item's key, when each item has one and no two share it.
fn item_keys(items: &[Value]) -> Option<Vec<&str>> {
    let keys: Vec<&str> = items.iter().map(item_key).collect::<Option<_>>()?;
    let unique: BTreeSet<&&str> = keys.iter().collect();
    (unique.len() == keys.len()).then_some(keys)
}

/// A list edited item by item: the items only the newer list has removed, those only the
/// older has appended before their successor, the others edited in place. False when the
/// items have no unique keys or the kept ones change order.
fn list_ops(path: &str, new: &[Value], old: &[Value], ops: &mut Vec<Op>) -> bool {
    let (Some(new_keys), Some(old_keys)) = (item_keys(new), item_keys(old)) else {
        return false;
    };
    let kept: Vec<&str> = new_keys
        .iter()
        .copied()
        .filter(|k| old_keys.contains(k))
        .collect();
    if kept
        .iter()
        .ne(old_keys.iter().filter(|k| new_keys.contains(k)))
    {
        return false;
    }
    // Written aside, so that a list set whole after all leaves no edit of its items behind.
    let mut edits = Vec::new();
    for key in new_keys.iter().filter(|k| !old_keys.contains(k)) {
        edits.push(Op::Remove(format!("{path}[{key}]")));
    }
    for (i, key) in new_keys.iter().enumerate() {
        let Some(j) = old_keys.iter().position(|k| k == key) else {
            continue;
        };
        if !diff(&format!("{path}[{key}]"), &new[i], &old[j], &mut edits) {
            return false;
        }
    }
    for (j, key) in old_keys.iter().enumerate() {
        if new_keys.contains(key) {
            continue;
        }
        let before = old_keys[j + 1..]
            .iter()
            .find(|k| new_keys.contains(k))
            .map(|k| (*k).to_string());
        edits.push(Op::Append {
            path: path.to_string(),
            value: old[j].clone(),
            before,
        });
    }
    ops.extend(edits);
    true
}

/// A container's `command: [/bin/bash, -c, SCRIPT]` edited by script line, as a person writes
/// it; false when `path` is no such command or the lines cannot be edited so.
fn script_ops(path: &str, new: &[Value], old: &[Value], ops: &mut Vec<Op>) -> bool {
    let Some(container) = command_container(path) else {
        return false;
    };
    let script = |items: &[Value]| match items {
        [Value::String(a), Value::String(b), Value::String(s)] if a == "/bin/bash" && b == "-c" => {
            Some(s.clone())
        }
        _ => None,
    };
    let (Some(new_text), Some(old_text)) = (script(new), script(old)) else {
        return false;
    };
    let Some(edits) = script_edits(container, &new_text, &old_text) else {
        return false;
    };
    ops.extend(edits);
    true
}

/// `c` of a path ending in `containers[c].command` or `initContainers[c].command`.
fn command_container(path: &str) -> Option<&str> {
    let rest = path.strip_suffix("].command")?;
    let (head, name) = rest.rsplit_once('[')?;
    (head.ends_with("containers") || head.ends_with("initContainers")).then_some(name)
}

/// A script line as an edit names it: without indentation and continuation.
fn flag(line: &str) -> &str {
    let line = line.trim_start();
    line.strip_suffix(" \\").unwrap_or(line)
}

/// The script edits taking `new` to `old`, checked by applying them.
fn script_edits(container: &str, new: &str, old: &str) -> Option<Vec<Op>> {
    let new_script = Script::parse(new);
    let old_script = Script::parse(old);
    let (new_lines, old_lines) = (new_script.lines(), old_script.lines());
    let remove: Vec<String> = new_lines
        .iter()
        .filter(|l| !old_lines.contains(l))
        .map(|l| flag(l).to_string())
        .collect();
    let mut ops = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for line in old_lines {
        if new_lines.contains(line) {
            if !run.is_empty() {
                ops.push(Op::Script {
                    container: container.to_string(),
                    remove: Vec::new(),
                    before: Some(flag(line).to_string()),
                    insert: std::mem::take(&mut run),
                });
            }
        } else {
            run.push(flag(line).to_string());
        }
    }
    if !run.is_empty() {
        return None;
    }
    if !remove.is_empty() {
        ops.insert(
            0,
            Op::Script {
                container: container.to_string(),
                remove,
                before: None,
                insert: Vec::new(),
            },
        );
    }
    let mut check = serde_json::json!({"kind": "Pod", "spec": {"containers": [
        {"name": container, "command": ["/bin/bash", "-c", new]}
    ]}});
    let reached = apply_ops(&mut check, &ops).is_ok()
        && check
            .pointer("/spec/containers/0/command/2")
            .and_then(Value::as_str)
            == Some(old);
    reached.then_some(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(script: &str, env: &Value) -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "d", "labels": {"k8s-app": "d", "infrastructure.openshift.io/x": "y"}},
            "spec": {"template": {"spec": {
                "containers": [{
                    "name": "ccm",
                    "command": ["/bin/bash", "-c", script],
                    "env": env,
                }],
                "volumes": [{"name": "a", "emptyDir": {}}],
            }}}
        })
    }

    const SCRIPT: &str = "set -o allexport\nexec ccm \\\n  --a=1 \\\n  --b=2 \\\n  --c=3\n";

    #[test]
    fn a_changed_flag_an_item_and_a_field_are_written_as_a_person_writes_them() {
        let newer = deployment(
            SCRIPT,
            &json!([{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]),
        );
        let mut older = deployment(
            "set -o allexport\nexec ccm \\\n  --a=1 \\\n  --z=9 \\\n  --c=3\n",
            &json!([{"name": "Z", "value": "0"}, {"name": "B", "value": "3"}]),
        );
        older["spec"]["template"]["spec"]["volumes"][0]["emptyDir"] = json!({"medium": "Memory"});
        let ops = object_ops(&newer, &older).expect("expressible");
        let text = crate::yaml::to_string(&serde_json::to_value(&ops).expect("ops")).expect("yaml");
        assert_eq!(
            text,
            "- script:\n    container: ccm\n    remove:\n    - --b=2\n- script:\n    container: ccm\n    before: --c=3\n    insert:\n    - --z=9\n- remove: spec.template.spec.containers[ccm].env[A]\n- set:\n    path: spec.template.spec.containers[ccm].env[B].value\n    value: \"3\"\n- append:\n    path: spec.template.spec.containers[ccm].env\n    value:\n      name: Z\n      value: \"0\"\n    before: B\n- set:\n    path: spec.template.spec.volumes[a].emptyDir.medium\n    value: Memory\n"
        );
    }

    #[test]
    fn a_field_name_with_a_dot_sets_the_mapping_that_holds_it() {
        let newer = deployment(SCRIPT, &json!([]));
        let mut older = newer.clone();
        older["metadata"]["labels"]["infrastructure.openshift.io/x"] = json!("z");
        let ops = object_ops(&newer, &older).expect("expressible");
        assert_eq!(ops, [set("metadata.labels", &older["metadata"]["labels"])]);
    }

    #[test]
    fn keys_in_another_order_are_kept_in_the_older_order() {
        let newer = json!({"kind": "K", "metadata": {"name": "n"}, "spec": {"a": 1, "b": 2}});
        let older = json!({"kind": "K", "metadata": {"name": "n"}, "spec": {"b": 2, "a": 1}});
        let ops = object_ops(&newer, &older).expect("expressible");
        assert_eq!(ops, [set("spec", &older["spec"])]);
        assert!(object_ops(&newer, &newer).expect("same").is_empty());
    }

    #[test]
    fn objects_removed_and_patched_and_what_a_delta_cannot_say() {
        let a = json!({"kind": "Role", "metadata": {"name": "a"}});
        let b = json!({"kind": "Role", "metadata": {"name": "b"}, "rules": []});
        let b_older = json!({"kind": "Role", "metadata": {"name": "b"}, "rules": ["x"]});
        let delta = manifests_delta(&[a.clone(), b.clone()], std::slice::from_ref(&b_older))
            .expect("expressible");
        assert_eq!(delta.remove, ["Role/a"]);
        assert_eq!(delta.patch.len(), 1);
        assert_eq!(
            delta.patch[0].ops,
            [Op::Append {
                path: "rules".to_string(),
                value: json!("x"),
                before: None
            }]
        );
        let err = manifests_delta(std::slice::from_ref(&b), &[a.clone(), b.clone()])
            .expect_err("an added object");
        assert!(
            format!("{err:#}").starts_with("Role/a: the older release has it"),
            "{err}"
        );
        let err = manifests_delta(&[a.clone(), b.clone()], &[b, a]).expect_err("order");
        assert!(format!("{err:#}").contains("in another order"), "{err}");
    }
}
