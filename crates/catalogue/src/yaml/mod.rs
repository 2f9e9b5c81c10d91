//! The only module that names the YAML crate.
//!
//! Reading: every input goes through [`documents`], which parses a YAML (or JSON, a subset of
//! YAML) stream into `serde_json::Value`s with serde-saphyr's budgets: duplicate keys are an
//! error, alias expansion, nesting depth and document count are bounded, so hostile input cannot
//! make the tool spin or run out of memory.
//!
//! Writing: [`to_string`] emits one manifest. serde-saphyr quotes the YAML 1.1 booleans (`on`,
//! `yes`, `no`, …) that Kubernetes' go-yaml would otherwise read as booleans
//! (kubernetes/kubernetes#34146), and never folds long lines, so long flags stay on one line.
//!
//! One file per direction: [`read`](mod@read) (inputs and the catalogue's own files),
//! [`value`] (building `serde_json::Value`s at their final size), [`write`](mod@write).

mod read;
pub(crate) mod value;
mod write;

pub use read::{documents, documents_by_yaml_parser, from_str, json_document, one_document};
pub use write::to_string;

#[cfg(test)]
mod tests;
