//! No platform compared as a string past the edge. The inputs layer and the catalogue crate's
//! `platform.rs` parse a platform name into `ccm_catalogue::platform::Platform`; everywhere
//! else (test code left out) a string literal that is a platform name must not decide
//! behaviour. A literal is counted as deciding when it is
//! * an operand of `==` or `!=` whose other operand names something `platform`,
//! * an arm of a `match` (or a pattern of `matches!`) on something named `platform`,
//! * an argument of a function or method called `require_*` or `*platform*`,
//! * the receiver or an argument of a string comparison (`eq_ignore_ascii_case`,
//!   `starts_with`, `ends_with`, `contains`, `strip_prefix`) whose other side names
//!   something `platform`.
//!
//! A platform name is any spelling, in any case, of a `Platform` or a `HostedPlatform`
//! (`AWS`, `aws`, `KubeVirt`, `powervs`). And the text of a platform
//! (`platform.as_str()`, `.to_string()`, `.to_ascii_lowercase()`) compared with anything,
//! by `==`, `!=` or one of those methods, is a finding too: past the edge a platform's name is
//! for writing, never for deciding.
//!
//! "Named platform" is an identifier containing `platform` in any case (`platform`,
//! `infra.platform`, `platform_type`), so `match publish { "External" => … }`, where the
//! install-config's publish strategy happens to share a platform's name, is not counted. The
//! rules read the syntax only: no types, no allow-list, the same answer on every run. What the
//! syntax cannot show (a string-typed value compared with a constant or a variable) the types
//! rule out: past the edge a platform is a `Platform`, which compares only with a `Platform`.

use ccm_catalogue::platform::{HostedPlatform, Platform};
use proc_macro2::TokenTree;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A platform-named literal deciding behaviour: the file and what was found.
pub type Finding = String;

/// Reads a crate's module tree from `lib` (test code left out), skipping the top modules in
/// `edges`, and returns every finding.
pub fn check_crate(lib: &Path, edges: &[&str]) -> Vec<Finding> {
    let mut findings = Vec::new();
    super::source::each_item(lib, edges, &mut |file, item| {
        let mut finder = Finder {
            file: file.to_path_buf(),
            found: Vec::new(),
        };
        finder.visit_item(item);
        findings.extend(finder.found);
    });
    findings
}

struct Finder {
    file: PathBuf,
    found: Vec<Finding>,
}

impl Finder {
    fn report(&mut self, how: &str, literal: &str) {
        self.found
            .push(format!("{}: {how} {literal:?}", self.file.display()));
    }
}

/// The platform name a literal expression spells (through `&`, parentheses and method calls
/// such as `.to_string()`), if it spells one.
fn platform_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()).filter(|v| is_platform_name(v)),
        syn::Expr::Reference(r) => platform_literal(&r.expr),
        syn::Expr::Paren(p) => platform_literal(&p.expr),
        syn::Expr::Group(g) => platform_literal(&g.expr),
        syn::Expr::MethodCall(m) => platform_literal(&m.receiver),
        _ => None,
    }
}

/// Whether `text` spells a platform, in any case: a `Platform`, a `HostedPlatform` or the
/// folder of a hosted component.
fn is_platform_name(text: &str) -> bool {
    let names = Platform::ALL.into_iter().map(Platform::as_str).chain(
        HostedPlatform::ALL
            .into_iter()
            .flat_map(|p| std::iter::once(p.as_str()).chain(p.component_folder())),
    );
    names
        .into_iter()
        .any(|name| name.eq_ignore_ascii_case(text))
}

/// The string comparisons counted like `==`.
const COMPARISONS: &[&str] = &[
    "eq_ignore_ascii_case",
    "starts_with",
    "ends_with",
    "contains",
    "strip_prefix",
];

/// The methods that turn a value into its text.
const TO_TEXT: &[&str] = &["as_str", "to_string", "to_ascii_lowercase", "to_lowercase"];

/// Whether an expression is the text of something named `platform` (`infra.platform.as_str()`,
/// `p.platform.to_string().to_ascii_lowercase()`).
fn platform_text(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::MethodCall(m) if TO_TEXT.contains(&m.method.to_string().as_str()) => {
            platform_text(&m.receiver) || names_platform(&m.receiver)
        }
        syn::Expr::Reference(r) => platform_text(&r.expr),
        syn::Expr::Paren(p) => platform_text(&p.expr),
        _ => false,
    }
}

fn is_platform_ident(ident: &str) -> bool {
    ident.to_ascii_lowercase().contains("platform")
}

/// Whether an expression names something `platform`.
fn names_platform(expr: &syn::Expr) -> bool {
    struct Idents(bool);
    impl<'ast> Visit<'ast> for Idents {
        fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
            self.0 |= is_platform_ident(&ident.to_string());
        }
    }
    let mut idents = Idents(false);
    idents.visit_expr(expr);
    idents.0
}

/// The first of a comparison's sides that is a platform's text, as written.
fn platform_text_among<'a>(sides: impl IntoIterator<Item = &'a syn::Expr>) -> Option<String> {
    sides
        .into_iter()
        .find(|side| platform_text(side))
        .map(|side| quote::ToTokens::to_token_stream(side).to_string())
}

/// The platform-named string literals of a pattern (`"AWS" | "Azure"`).
fn pattern_literals(pat: &syn::Pat, out: &mut Vec<String>) {
    match pat {
        syn::Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) if is_platform_name(&s.value()) => out.push(s.value()),
        syn::Pat::Or(or) => or.cases.iter().for_each(|p| pattern_literals(p, out)),
        syn::Pat::Paren(p) => pattern_literals(&p.pat, out),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| pattern_literals(p, out)),
        _ => {}
    }
}

/// Whether a called function or method is one that checks a platform.
fn is_platform_check(name: &str) -> bool {
    name.starts_with("require_") || is_platform_ident(name)
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        if matches!(e.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            for (literal, other) in [(&e.left, &e.right), (&e.right, &e.left)] {
                if let Some(name) = platform_literal(literal)
                    && names_platform(other)
                {
                    self.report("compared with ==/!=", &name);
                }
            }
            if let Some(text) = platform_text_among([&*e.left, &*e.right]) {
                self.report("its text compared with ==/!=", &text);
            }
        }
        syn::visit::visit_expr_binary(self, e);
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        if names_platform(&e.expr) {
            let mut literals = Vec::new();
            for arm in &e.arms {
                pattern_literals(&arm.pat, &mut literals);
            }
            for name in literals {
                self.report("matched", &name);
            }
        }
        syn::visit::visit_expr_match(self, e);
    }

    fn visit_expr_call(&mut self, e: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*e.func
            && let Some(last) = p.path.segments.last()
            && is_platform_check(&last.ident.to_string())
        {
            for name in e.args.iter().filter_map(platform_literal) {
                self.report(&format!("passed to {}", last.ident), &name);
            }
        }
        syn::visit::visit_expr_call(self, e);
    }

    fn visit_expr_method_call(&mut self, e: &'ast syn::ExprMethodCall) {
        let method = e.method.to_string();
        if is_platform_check(&method) {
            for name in e.args.iter().filter_map(platform_literal) {
                self.report(&format!("passed to .{method}"), &name);
            }
        }
        if COMPARISONS.contains(&method.as_str()) {
            let how = format!("compared with .{method}");
            if let Some(name) = platform_literal(&e.receiver)
                && e.args.iter().any(names_platform)
            {
                self.report(&how, &name);
            }
            if names_platform(&e.receiver) {
                for name in e.args.iter().filter_map(platform_literal) {
                    self.report(&how, &name);
                }
            }
            if let Some(text) = platform_text_among(std::iter::once(&*e.receiver).chain(&e.args)) {
                self.report(&format!("its text {how}"), &text);
            }
        }
        syn::visit::visit_expr_method_call(self, e);
    }

    /// `matches!(platform, "AWS" | …)`: the scrutinee is the tokens before the first comma.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac.path.is_ident("matches") {
            let tokens: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
            let comma = tokens
                .iter()
                .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
            if let Some(comma) = comma {
                let scrutinee = tokens[..comma]
                    .iter()
                    .any(|t| matches!(t, TokenTree::Ident(i) if is_platform_ident(&i.to_string())));
                for token in &tokens[comma + 1..] {
                    if let TokenTree::Literal(lit) = token {
                        let text = lit.to_string();
                        let value = text.trim_matches('"');
                        if scrutinee && is_platform_name(value) {
                            self.report("matched by matches!", value);
                        }
                    }
                }
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

#[test]
fn no_platform_is_compared_as_a_string_past_the_inputs_layer() {
    let root = super::repo();
    let mut findings = check_crate(&root.join("src/lib.rs"), &["inputs"]);
    findings.extend(check_crate(
        &root.join("crates/catalogue/src/lib.rs"),
        &["platform"],
    ));
    assert!(
        findings.is_empty(),
        "platform names compared as strings (parse into ccm_catalogue::platform::Platform at the edge and match on it):\n{}",
        findings.join("\n")
    );
}

/// The check finds each form it is for in a small crate of its own, and leaves alone what it
/// is not for: another field sharing a platform's name, an enum comparison, test code, and
/// the edge module.
#[test]
fn the_platform_string_check_finds_each_form_and_only_those() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    let write = |file: &str, text: &str| std::fs::write(src.join(file), text).expect("write");
    write("lib.rs", "pub mod inputs;\npub mod render;\n");
    write(
        "inputs.rs",
        "pub fn parse(platform: &str) -> bool { platform == \"AWS\" }\n",
    );
    write(
        "render.rs",
        r#"
fn bad(infra: &Infra, ctx: &Ctx) {
    if infra.platform == "Azure" {}
    if "oVirt".to_string() != platform_type {}
    match infra.platform.as_str() { "VSphere" | "Nutanix" => {}, _ => {} }
    let _ = matches!(platform, "GCP" | "IBMCloud");
    require_platform(ctx, "OpenStack", "openstack");
    catalogue.select_platform("External");
    match spec.platform.as_str() { "kubevirt" => {}, _ => {} }
    if name.starts_with(&infra.platform.as_str().to_ascii_lowercase()) {}
    if "powervs".eq_ignore_ascii_case(platform) {}
    if p.platform.to_string() == wanted {}
}
fn good(infra: &Infra, publish: &str) {
    match publish { "External" => {}, _ => {} }
    if infra.platform == Platform::Aws {}
    if infra.kind == "AWS" {}
    set_label(infra, "AWS");
}
#[cfg(test)]
mod tests {
    fn t(platform: &str) -> bool { platform == "AWS" }
}
"#,
    );
    let findings = check_crate(&src.join("lib.rs"), &["inputs"]);
    let found: Vec<&str> = findings
        .iter()
        .map(|f| f.split_once(": ").expect("file: what").1)
        .collect();
    assert_eq!(
        found,
        [
            "compared with ==/!= \"Azure\"",
            "compared with ==/!= \"oVirt\"",
            "matched \"VSphere\"",
            "matched \"Nutanix\"",
            "matched by matches! \"GCP\"",
            "matched by matches! \"IBMCloud\"",
            "passed to require_platform \"OpenStack\"",
            "passed to require_platform \"openstack\"",
            "passed to .select_platform \"External\"",
            "matched \"kubevirt\"",
            "its text compared with .starts_with \"& infra . platform . as_str () . to_ascii_lowercase ()\"",
            "compared with .eq_ignore_ascii_case \"powervs\"",
            "its text compared with ==/!= \"p . platform . to_string ()\"",
        ],
        "{findings:#?}"
    );
    assert!(
        findings.iter().all(|f| f.contains("render.rs")),
        "{findings:#?}"
    );
}
