//! The code the source checks read: a crate's module tree from its `lib.rs`, file by file, with
//! test code (`#[cfg(test)]` modules, functions, impls and items) left out.

use super::is_test;
use std::path::Path;

/// Calls `visit` with each file of the crate at `lib` and each of its items, a child module's
/// file where the module is declared, test code removed; the top modules named in `skip` are
/// left out.
pub fn each_item(lib: &Path, skip: &[&str], visit: &mut dyn FnMut(&Path, &syn::Item)) {
    walk(lib, lib.parent().expect("src"), true, skip, visit);
}

fn walk(
    file: &Path,
    dir: &Path,
    root: bool,
    skip: &[&str],
    visit: &mut dyn FnMut(&Path, &syn::Item),
) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    strip_tests(&mut ast.items);
    for item in &ast.items {
        match item {
            syn::Item::Mod(m) if root && skip.contains(&m.ident.to_string().as_str()) => {}
            syn::Item::Mod(m) if m.content.is_none() => {
                let name = m.ident.to_string();
                let (child, child_dir) = if dir.join(format!("{name}.rs")).exists() {
                    (dir.join(format!("{name}.rs")), dir.join(&name))
                } else {
                    (dir.join(&name).join("mod.rs"), dir.join(&name))
                };
                walk(&child, &child_dir, false, skip, visit);
            }
            item => visit(file, item),
        }
    }
}

/// Removes test code: `#[cfg(test)]` items, and such functions of an impl and items of an inline
/// module.
fn strip_tests(items: &mut Vec<syn::Item>) {
    items.retain(|item| !is_test_item(item));
    for item in items {
        match item {
            syn::Item::Impl(i) => i
                .items
                .retain(|f| !matches!(f, syn::ImplItem::Fn(f) if is_test(&f.attrs))),
            syn::Item::Mod(syn::ItemMod {
                content: Some((_, items)),
                ..
            }) => strip_tests(items),
            _ => {}
        }
    }
}

fn is_test_item(item: &syn::Item) -> bool {
    let attrs: &[syn::Attribute] = match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        _ => &[],
    };
    is_test(attrs)
}
