//! Release deltas: how one release's providers differ from the next release's, as edits of
//! parsed objects (never of text). A delta removes objects and patches objects and descriptors
//! with a few operations on paths such as
//! `spec.template.spec.initContainers[azure-inject-credentials].env`, where `[x]` picks the list
//! item whose `name` is `x` (or the string item `x`), and edits container scripts by line as the
//! render step does ([`crate::script::Script`]). Every operation must find what it
//! edits: a delta that no longer fits the newer release fails, naming its file and field.
//! build.rs compiles this file (through `super::data`), so it uses only `crate::` modules
//! build.rs has.

use crate::providers::LocatedObject;
use crate::script::Script;
use anyhow::{Context as _, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The objects every provider shares (`assets/common/`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CommonDelta {
    /// Edits of the PodDisruptionBudget.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pod_disruption_budget: Vec<Op>,
    /// Edits of the Service.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) service: Vec<Op>,
}

/// One provider's delta.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProviderDelta {
    /// Edits of `provider.yaml`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descriptor: Vec<Op>,
    /// Objects (manifests or bootstrap pods) the older release does not have, as `Kind/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// Edits of objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patch: Vec<ObjectPatch>,
}

/// Edits of one object.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ObjectPatch {
    /// `Kind/name` of a manifest or bootstrap pod.
    pub object: String,
    /// The edits, in order.
    pub(crate) ops: Vec<Op>,
}

/// One edit.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum Op {
    /// Removes the field or list item at the path.
    Remove(String),
    /// Sets the field at the path (its parent must exist).
    Set {
        /// Where.
        path: String,
        /// The value.
        value: Value,
    },
    /// Adds an item to the list at the path, at the end or before the item `before` picks.
    Append {
        /// The list.
        path: String,
        /// The item.
        value: Value,
        /// Inserts before this item (a `name` or string item) instead of at the end.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<String>,
    },
    /// Edits the script (`command: [/bin/bash, -c, SCRIPT]`) of a container or init container.
    Script {
        /// The container's name.
        container: String,
        /// Removes the line starting with each of these (each must be there).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
        /// Inserts `insert` before the line starting with this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<String>,
        /// Whole flag lines to insert before `before`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        insert: Vec<String>,
    },
}

/// Applies `ops` to `object`; errors say which op (`ops[i]`) and what did not fit.
pub(crate) fn apply_ops(object: &mut Value, ops: &[Op]) -> Result<()> {
    for (i, op) in ops.iter().enumerate() {
        apply(object, op).with_context(|| format!("ops[{i}]"))?;
    }
    Ok(())
}

// Reads better whole: one arm per operation, each what it does to the object and how it
// fails, read side by side.
fn apply(object: &mut Value, op: &Op) -> Result<()> {
    match op {
        Op::Remove(path) => {
            let (parent, last) = split_last(path)?;
            let container = resolve(object, &parent, path)?;
            match (container, last) {
                (Value::Object(map), Segment::Key(key)) => {
                    map.shift_remove(&key)
                        .ok_or_else(|| anyhow!("remove {path}: no field {key:?}"))?;
                }
                (Value::Object(map), Segment::Item(key, item)) => {
                    let items = map
                        .get_mut(&key)
                        .and_then(Value::as_array_mut)
                        .ok_or_else(|| anyhow!("remove {path}: {key:?} is not a list"))?;
                    let at = position(items, &item)
                        .ok_or_else(|| anyhow!("remove {path}: no item {item:?}"))?;
                    items.remove(at);
                }
                _ => bail!("remove {path}: the parent is not a mapping"),
            }
        }
        Op::Set { path, value } => {
            let (parent, last) = split_last(path)?;
            let Segment::Key(key) = last else {
                bail!("set {path}: the path must end in a field name");
            };
            let Value::Object(map) = resolve(object, &parent, path)? else {
                bail!("set {path}: the parent is not a mapping");
            };
            map.insert(key, value.clone());
        }
        Op::Append {
            path,
            value,
            before,
        } => {
            let segments = parse_path(path)?;
            let Value::Array(list) = resolve(object, &segments, path)? else {
                bail!("append {path}: not a list");
            };
            let at = match before {
                Some(item) => position(list, item)
                    .ok_or_else(|| anyhow!("append {path}: no item {item:?} to insert before"))?,
                None => list.len(),
            };
            list.insert(at, value.clone());
        }
        Op::Script {
            container,
            remove,
            before,
            insert,
        } => {
            let mut found = containers_named_mut(object, container);
            let (Some(target), true) = (found.pop(), found.is_empty()) else {
                bail!("script: no container or init container {container:?}");
            };
            let Some(text) = target.pointer("/command/2").and_then(Value::as_str) else {
                bail!(
                    "script: container {container:?} has no script (command: [/bin/bash, -c, SCRIPT])"
                );
            };
            let mut script = Script::parse(text);
            for prefix in remove {
                if !script.has(prefix) {
                    bail!("script: container {container:?} has no line starting with {prefix:?}");
                }
                script.remove(prefix);
            }
            match (before, insert.is_empty()) {
                (Some(anchor), false) => script
                    .insert_before(anchor, insert)
                    .with_context(|| format!("script: container {container:?}"))?,
                (None, true) => {}
                _ => bail!("script: give both before and insert, or neither"),
            }
            target["command"][2] = Value::String(script.to_string());
        }
    }
    Ok(())
}

/// One step of a path: a field, or a field holding a list and the item picked in it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Key(String),
    Item(String, String),
}

fn parse_path(path: &str) -> Result<Vec<Segment>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let key = &rest[..end];
        if key.is_empty() {
            bail!("path {path:?}: empty field name");
        }
        rest = &rest[end..];
        if let Some(after) = rest.strip_prefix('[') {
            let close = after
                .find(']')
                .ok_or_else(|| anyhow!("path {path:?}: unclosed ["))?;
            out.push(Segment::Item(key.to_string(), after[..close].to_string()));
            rest = &after[close + 1..];
        } else {
            out.push(Segment::Key(key.to_string()));
        }
        if let Some(after) = rest.strip_prefix('.') {
            if after.is_empty() {
                bail!("path {path:?}: ends in a dot");
            }
            rest = after;
        } else if !rest.is_empty() {
            bail!("path {path:?}: expected . after ]");
        }
    }
    if out.is_empty() {
        bail!("empty path");
    }
    Ok(out)
}

fn split_last(path: &str) -> Result<(Vec<Segment>, Segment)> {
    let mut segments = parse_path(path)?;
    let last = segments.pop().ok_or_else(|| anyhow!("empty path"))?;
    Ok((segments, last))
}

/// The value at `segments` (all of which must exist).
fn resolve<'a>(object: &'a mut Value, segments: &[Segment], path: &str) -> Result<&'a mut Value> {
    let mut at = object;
    for segment in segments {
        let (key, item) = match segment {
            Segment::Key(key) => (key, None),
            Segment::Item(key, item) => (key, Some(item)),
        };
        at = at
            .get_mut(key.as_str())
            .ok_or_else(|| anyhow!("{path}: no field {key:?}"))?;
        if let Some(item) = item {
            let list = at
                .as_array_mut()
                .ok_or_else(|| anyhow!("{path}: {key:?} is not a list"))?;
            let index =
                position(list, item).ok_or_else(|| anyhow!("{path}: no item {item:?} in {key}"))?;
            at = &mut list[index];
        }
    }
    Ok(at)
}

/// The index of the item whose `name` (or, for items without a name, `path`) is `item`, or
/// that is the string `item`.
fn position(list: &[Value], item: &str) -> Option<usize> {
    list.iter().position(|v| {
        v.as_str() == Some(item)
            || v.get("name")
                .or_else(|| v.get("path"))
                .and_then(Value::as_str)
                == Some(item)
    })
}

fn containers_named_mut<'a>(object: &'a mut Value, name: &str) -> Vec<&'a mut Value> {
    let spec = if crate::json_fields::kind_of(object) == "Pod" {
        object.get_mut("spec")
    } else {
        object.pointer_mut("/spec/template/spec")
    };
    let Some(Value::Object(spec)) = spec else {
        return Vec::new();
    };
    spec.iter_mut()
        .filter(|(key, _)| *key == "initContainers" || *key == "containers")
        .filter_map(|(_, list)| list.as_array_mut())
        .flatten()
        .filter(|c| c.get("name").and_then(Value::as_str) == Some(name))
        .collect()
}

/// `Kind/name` of an object.
pub fn object_id(object: &Value) -> String {
    format!(
        "{}/{}",
        crate::json_fields::kind_of(object),
        crate::json_fields::name_of(object)
    )
}

/// Applies a provider delta to a provider's parts: the descriptor and its objects (manifests
/// and bootstrap pods, each list keeping its order).
pub(crate) fn apply_provider(
    delta: &ProviderDelta,
    descriptor: &mut Value,
    lists: [&mut Vec<LocatedObject>; 2],
) -> Result<()> {
    apply_ops(descriptor, &delta.descriptor).context("descriptor")?;
    let [manifests, bootstrap] = lists;
    let mut by_id: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (l, list) in [&*manifests, &*bootstrap].into_iter().enumerate() {
        for (i, located) in list.iter().enumerate() {
            by_id.insert(object_id(&located.object), (l, i));
        }
    }
    for (i, patch) in delta.patch.iter().enumerate() {
        let Some(&(l, at)) = by_id.get(&patch.object) else {
            bail!("patch[{i}]: no object {}", patch.object);
        };
        let list = if l == 0 {
            &mut *manifests
        } else {
            &mut *bootstrap
        };
        apply_ops(&mut list[at].object, &patch.ops).with_context(|| format!("patch[{i}]"))?;
    }
    for (i, id) in delta.remove.iter().enumerate() {
        if !by_id.contains_key(id) {
            bail!("remove[{i}]: no object {id}");
        }
    }
    for list in [manifests, bootstrap] {
        list.retain(|located| !delta.remove.contains(&object_id(&located.object)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment() -> Value {
        json!({
            "kind": "Deployment",
            "metadata": {"name": "d"},
            "spec": {"template": {"spec": {
                "initContainers": [{"name": "init", "args": ["--a", "--b"]}],
                "containers": [{
                    "name": "ccm",
                    "command": ["/bin/bash", "-c", "exec ccm \\\n  --x=1 \\\n  --y=2\n"],
                    "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
                }],
            }}}
        })
    }

    fn ops(yaml: &str) -> Vec<Op> {
        crate::yaml::from_str(yaml).expect("ops parse")
    }

    #[test]
    fn ops_edit_fields_list_items_by_name_and_script_lines() {
        let mut object = deployment();
        apply_ops(
            &mut object,
            &ops(r#"
- remove: spec.template.spec.containers[ccm].env[A]
- remove: spec.template.spec.initContainers[init].args[--b]
- append: {path: "spec.template.spec.containers[ccm].env", value: {name: C, value: "3"}, before: B}
- set: {path: "spec.template.spec.containers[ccm].image", value: img}
- script: {container: ccm, remove: ["--y="], before: "--x=", insert: ["--w=0"]}
"#),
        )
        .expect("applies");
        let ccm = &object["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(
            ccm["env"],
            json!([{"name": "C", "value": "3"}, {"name": "B", "value": "2"}])
        );
        assert_eq!(ccm["image"], "img");
        assert_eq!(ccm["command"][2], "exec ccm \\\n  --w=0 \\\n  --x=1\n");
        assert_eq!(
            object["spec"]["template"]["spec"]["initContainers"][0]["args"],
            json!(["--a"])
        );
    }

    #[test]
    fn an_op_that_does_not_fit_says_which_and_why() {
        let cases = [
            (
                "- remove: spec.template.spec.containers[ccm].env[Z]",
                "ops[0]: remove spec.template.spec.containers[ccm].env[Z]: no item \"Z\"",
            ),
            (
                "- remove: spec.nope",
                "ops[0]: remove spec.nope: no field \"nope\"",
            ),
            (
                "- set: {path: spec.x.y, value: 1}",
                "ops[0]: spec.x.y: no field \"x\"",
            ),
            (
                "- script: {container: other}",
                "ops[0]: script: no container or init container \"other\"",
            ),
            (
                "- script: {container: ccm, remove: [--z=]}",
                "ops[0]: script: container \"ccm\" has no line starting with \"--z=\"",
            ),
            (
                "- append: {path: spec.template, value: 1}",
                "ops[0]: append spec.template: not a list",
            ),
            (
                "- remove: spec..x",
                "ops[0]: path \"spec..x\": empty field name",
            ),
        ];
        for (yaml, want) in cases {
            let err = format!(
                "{:#}",
                apply_ops(&mut deployment(), &ops(yaml)).expect_err(yaml)
            );
            assert_eq!(err, want, "{yaml}");
        }
    }

    #[test]
    fn unknown_op_fields_are_refused() {
        let err = crate::yaml::from_str::<Vec<Op>>("- remove: a\n- sett: {path: a, value: 1}")
            .expect_err("unknown op");
        assert!(format!("{err:#}").contains("sett"), "{err}");
        let err = crate::yaml::from_str::<Vec<Op>>("- set: {path: a, value: 1, extra: 2}")
            .expect_err("unknown field");
        assert!(format!("{err:#}").contains("extra"), "{err}");
    }

    #[test]
    fn provider_delta_removes_and_patches_by_kind_and_name() {
        let mut descriptor = json!({"spec": {"cloudConfig": {"transform": "aws"}}});
        let mut manifests = vec![
            LocatedObject {
                at: "a".to_string(),
                object: deployment(),
            },
            LocatedObject {
                at: "b".to_string(),
                object: json!({"kind": "Role", "metadata": {"name": "r"}}),
            },
        ];
        let mut bootstrap = Vec::new();
        let delta: ProviderDelta = crate::yaml::from_str(
            "descriptor:\n- set: {path: spec.cloudConfig.transform, value: none}\nremove: [Role/r]\npatch:\n- object: Deployment/d\n  ops:\n  - remove: spec.template.spec.initContainers\n",
        )
        .expect("parses");
        apply_provider(&delta, &mut descriptor, [&mut manifests, &mut bootstrap]).expect("applies");
        assert_eq!(descriptor["spec"]["cloudConfig"]["transform"], "none");
        assert_eq!(manifests.len(), 1);
        assert!(
            manifests[0].object["spec"]["template"]["spec"]
                .get("initContainers")
                .is_none()
        );

        let missing: ProviderDelta = crate::yaml::from_str("remove: [Role/x]").expect("parses");
        let err = apply_provider(&missing, &mut descriptor, [&mut manifests, &mut bootstrap])
            .expect_err("no such object");
        assert_eq!(format!("{err:#}"), "remove[0]: no object Role/x");
    }
}
