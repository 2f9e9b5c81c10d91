fn main() { print!("{}", ccm_render::install_config::facts::markdown_table()); }
