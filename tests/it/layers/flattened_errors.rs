//! Errors keep their cause. An error that has a cause is built around it with anyhow's
//! `context`/`with_context` (the file or flag, the field), so the cause stays in the chain and
//! `main` prints the whole chain on its one `error:` line. Formatting the cause's text into a new
//! message instead drops the chain below it and builds the line a second way. Found (test code
//! left out, as in the other checks):
//! * a closure given to `map_err` whose parameter (the cause) is formatted into an `anyhow!`,
//!   `bail!`, `ensure!` or `format!`, or that is only `cause.to_string()`;
//! * a `match` arm on `Err(cause)` whose body formats the cause into one of those macros.
//!
//! "Formatted" is `{cause}` (with any spec: `{cause:#}`, `{cause:?}`) in the format string, or an
//! argument that is the cause itself: `cause`, `&cause`, `cause.error`, `cause.inner()`,
//! `cause.into_inner()`, `cause.to_string()`, `Type::from(cause)`. A message that uses something
//! the `Err` value holds (`docs.len()`, `path.display()`) or withholds the cause (a parse error
//! that could quote a secret) formats no cause and is not counted.

use proc_macro2::{TokenStream, TokenTree};
use std::path::Path;
use syn::visit::Visit;

/// A cause flattened into a message: the file and the macro that does it.
pub type Finding = String;

/// Reads a crate's module tree from `lib` (test code left out) and returns every finding.
pub fn check_crate(lib: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    super::source::each_item(lib, &[], &mut |file, item| {
        let mut finder = Finder {
            file: file.display().to_string(),
            found: Vec::new(),
        };
        finder.visit_item(item);
        findings.extend(finder.found);
    });
    findings
}

struct Finder {
    file: String,
    found: Vec<Finding>,
}

impl Finder {
    /// Reports each error-building macro in `body` that formats `cause`.
    fn check_body(&mut self, body: &syn::Expr, cause: &str) {
        struct Macros<'a>(&'a str, Vec<String>);
        impl<'ast> Visit<'ast> for Macros<'_> {
            fn visit_macro(&mut self, mac: &'ast syn::Macro) {
                if formats_cause(mac, self.0) {
                    let name = mac.path.segments.last().map(|s| s.ident.to_string());
                    let args = mac.tokens.to_string();
                    self.1
                        .push(format!("{}!({args})", name.unwrap_or_default()));
                }
            }
        }
        let mut macros = Macros(cause, Vec::new());
        macros.visit_expr(body);
        for mac in macros.1 {
            self.found
                .push(format!("{}: {mac} formats the cause `{cause}`", self.file));
        }
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "map_err"
            && let Some(syn::Expr::Closure(closure)) = call.args.first()
            && let [syn::Pat::Ident(param)] = closure.inputs.iter().collect::<Vec<_>>()[..]
        {
            let cause = param.ident.to_string();
            self.check_body(&closure.body, &cause);
            if is_cause_to_string(&closure.body, &cause) {
                self.found.push(format!(
                    "{}: map_err(|{cause}| {cause}.to_string()) makes the cause a string",
                    self.file
                ));
            }
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if let Some(cause) = err_binding(&arm.pat) {
            self.check_body(&arm.body, &cause);
        }
        syn::visit::visit_arm(self, arm);
    }
}

/// The name an `Err(name)` pattern (or `Err(Kind::Error(name))`) binds.
fn err_binding(pat: &syn::Pat) -> Option<String> {
    fn inner(pat: &syn::Pat) -> Option<String> {
        match pat {
            syn::Pat::Ident(id) => Some(id.ident.to_string()),
            syn::Pat::TupleStruct(t) if t.elems.len() == 1 => inner(&t.elems[0]),
            _ => None,
        }
    }
    match pat {
        syn::Pat::TupleStruct(t)
            if t.path.segments.last().is_some_and(|s| s.ident == "Err") && t.elems.len() == 1 =>
        {
            inner(&t.elems[0])
        }
        _ => None,
    }
}

fn is_cause_to_string(body: &syn::Expr, cause: &str) -> bool {
    matches!(body, syn::Expr::MethodCall(m)
        if m.method == "to_string"
            && m.args.is_empty()
            && matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident(cause)))
}

/// Whether an error-building macro formats `cause`: in its format string or as an argument.
fn formats_cause(mac: &syn::Macro, cause: &str) -> bool {
    let name = mac.path.segments.last().map(|s| s.ident.to_string());
    if !matches!(
        name.as_deref(),
        Some("anyhow" | "bail" | "ensure" | "format")
    ) {
        return false;
    }
    let mut args: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for token in mac.tokens.clone() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => args.push(Vec::new()),
            _ => args.last_mut().expect("one").push(token),
        }
    }
    args.iter().any(|arg| match &arg[..] {
        [TokenTree::Literal(literal)] => {
            let text = literal.to_string();
            text.contains(&format!("{{{cause}}}")) || text.contains(&format!("{{{cause}:"))
        }
        _ => is_the_cause(
            &arg.iter().cloned().collect::<TokenStream>().to_string(),
            cause,
        ),
    })
}

/// Whether an argument's tokens (as `TokenStream` prints them) are the cause itself.
fn is_the_cause(arg: &str, cause: &str) -> bool {
    let arg = arg.replace(' ', "");
    let arg = arg.trim_start_matches('&');
    arg == cause
        || ["error", "inner()", "into_inner()", "to_string()"]
            .iter()
            .any(|field| arg == format!("{cause}.{field}"))
        || arg.ends_with(&format!("({cause})"))
}

#[test]
fn no_error_formats_its_cause_into_a_message() {
    let repo = super::repo();
    let mut found = check_crate(&repo.join("src/lib.rs"));
    found.extend(check_crate(&repo.join("crates/catalogue/src/lib.rs")));
    assert!(
        found.is_empty(),
        "keep the cause in the chain: `.with_context(|| …)` instead of formatting it:\n{}",
        found.join("\n")
    );
}

/// The check finds each way of flattening a cause and leaves context, a value the `Err` holds,
/// a withheld cause and test code alone.
#[test]
fn the_flattened_error_check_finds_a_cause_formatted_into_a_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::write(
        src.join("lib.rs"),
        r#"mod inner;
fn a(p: &str) -> Result<()> { f().map_err(|e| anyhow!("{p}: {e}"))?; Ok(()) }
fn b() -> Result<()> { f().map_err(|err| anyhow::anyhow!("bad: {}", err.error)) }
fn c() -> Result<(), String> { f().map_err(|e| e.to_string()) }
fn d() -> Result<()> {
    match f() {
        Ok(x) => Ok(x),
        Err(err) => bail!("--dest-dir {}: {err:#}", "x"),
    }
}
fn good(p: &str) -> Result<()> {
    f().with_context(|| format!("{p}: reading"))?;
    g().map_err(|docs| anyhow!("holds {} documents", docs.len()))?;
    h().map_err(|_| anyhow!("{p}: not valid YAML (withheld)"))?;
    match f() {
        Err(err) => Err(err).context("x"),
        Ok(x) => Ok(x),
    }
}
#[cfg(test)]
mod tests { fn t() { f().map_err(|e| format!("{e:#}")); } }
"#,
    )
    .expect("write");
    std::fs::write(
        src.join("inner.rs"),
        "fn e() -> Result<()> { f().map_err(|e| anyhow!(\"x: {}\", std::io::Error::from(e))) }\n",
    )
    .expect("write");
    let found = check_crate(&src.join("lib.rs"));
    // Child modules' findings first.
    let wanted = [
        "inner.rs: anyhow!(\"x: {}\" , std :: io :: Error :: from (e)) formats the cause `e`",
        "lib.rs: anyhow!(\"{p}: {e}\") formats the cause `e`",
        "lib.rs: anyhow!(\"bad: {}\" , err . error) formats the cause `err`",
        "lib.rs: map_err(|e| e.to_string()) makes the cause a string",
        "lib.rs: bail!(\"--dest-dir {}: {err:#}\" , \"x\") formats the cause `err`",
    ];
    assert_eq!(found.len(), wanted.len(), "{found:#?}");
    for (finding, want) in found.iter().zip(wanted) {
        assert!(finding.ends_with(want), "{finding}\nwanted: {want}");
    }
}
