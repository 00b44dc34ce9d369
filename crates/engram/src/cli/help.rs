//! `engram help [COMMAND...] [--json] [--all]`: the usual help, or a
//! machine-readable schema of the commands (names, descriptions, every
//! argument with its flag, whether it is required and takes a value) for
//! agents. Admin commands (serving, keys in a data directory, the model,
//! benches)
//! are listed with `--all` only.

use super::out;
use serde_json::{json, Value};

/// Commands run on the server's machine rather than against its API.
pub const ADMIN: &[&str] = &["serve", "admin", "model", "bench"];

#[derive(clap::Args, Debug)]
pub struct HelpArgs {
    /// The command to describe (e.g. `tags merge`); all when none.
    pub command: Vec<String>,
    /// A JSON schema of the commands.
    #[arg(long)]
    pub json: bool,
    /// Include the admin commands (serve, admin, model, bench).
    #[arg(long)]
    pub all: bool,
}

fn arg_schema(a: &clap::Arg) -> Value {
    let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
    json!({
        "name": a.get_id().as_str(),
        "long": a.get_long().map(|l| format!("--{l}")),
        "positional": a.is_positional(),
        "required": a.is_required_set(),
        "takesValue": takes_value,
        "multiple": a.get_num_args().is_some_and(|n| n.max_values() > 1),
        "possibleValues": a.get_possible_values().iter().map(|v| v.get_name().to_string()).collect::<Vec<_>>(),
        "env": a.get_env().map(|e| e.to_string_lossy().into_owned()),
        "help": a.get_help().map(|h| h.to_string()),
    })
}

fn command_schema(c: &clap::Command, all: bool) -> Value {
    let args: Vec<Value> = c
        .get_arguments()
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
        .map(arg_schema)
        .collect();
    let subcommands: Vec<Value> = c
        .get_subcommands()
        .filter(|s| all || !ADMIN.contains(&s.get_name()))
        .map(|s| command_schema(s, all))
        .collect();
    json!({
        "name": c.get_name(),
        "about": c.get_about().map(|a| a.to_string()),
        "args": args,
        "subcommands": subcommands,
    })
}

/// Print help for `args.command` under `root`; exit code 0, or 4 for an
/// unknown command.
pub fn run(mut root: clap::Command, args: HelpArgs) -> std::process::ExitCode {
    root.build();
    let mut c = &root;
    for name in &args.command {
        match c.find_subcommand(name) {
            Some(sub) => c = sub,
            None => {
                let e = super::CliError::new(4, "not_found", format!("no command `{name}`"))
                    .hint("`engram help --all` lists every command");
                e.report(args.json);
                return std::process::ExitCode::from(e.code);
            }
        }
    }
    if args.json {
        let v = command_schema(c, args.all);
        out(serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        let mut c = c.clone();
        if !args.all && args.command.is_empty() {
            for admin in ADMIN {
                c = c.mut_subcommand(admin, |s| s.hide(true));
            }
        }
        out(c.render_long_help());
        if !args.all && args.command.is_empty() {
            out("Admin commands (serve, admin, model, bench): engram help --all");
        }
    }
    std::process::ExitCode::SUCCESS
}
