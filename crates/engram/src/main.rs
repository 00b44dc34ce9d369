//! The `engram` binary: `engram serve` runs the whole service (HTTP API and
//! background workers) on one machine; `engram admin keys` manages API keys
//! in a data directory; `engram bench` measures; the other commands are
//! clients of a running server (`cli`).
//!
//! `main` only parses configuration, sets up logging, wires the parts
//! together and shuts them down in order; the work lives in the library
//! crates.

mod bench;
mod cli;
mod config;
mod keys;
mod serve;
mod store;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "engram",
    version,
    about = "Engram: a self-hostable memory and retrieval service for AI applications",
    disable_help_subcommand = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the service: HTTP API and background workers.
    Serve(Box<config::ServeArgs>),
    /// Administration on the server's machine: API keys straight in a data
    /// directory (no server needed).
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Benchmarks: ingest throughput, retrieval quality (use --release).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Help on the commands; `--json` for a machine-readable schema, `--all`
    /// for the admin commands too.
    Help(cli::help::HelpArgs),
    /// The client commands: talk to a running server.
    #[command(flatten)]
    Client(cli::ClientCommand),
    /// Find the embedding model (fetching it if missing) and print its folder.
    Model {
        /// A model folder to check instead of the usual lookup.
        #[arg(long, env = "ENGRAM_MODEL_DIR")]
        model_dir: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create, list or revoke API keys in a data directory.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
}

fn main() -> std::process::ExitCode {
    // a usage error exits 1 (clap's 2 means "authentication needed" here)
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return std::process::ExitCode::from(if e.use_stderr() { 1 } else { 0 });
        }
    };

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match cli.command {
            // client commands keep their own output and exit codes
            Command::Client(c) => return Ok(Some(cli::dispatch(c).await)),
            Command::Help(args) => {
                use clap::CommandFactory;
                return Ok(Some(cli::help::run(Cli::command(), args)));
            }
            Command::Serve(args) => serve::run(*args).await,
            Command::Admin(AdminCommand::Keys(cmd)) => keys::run(cmd).await,
            Command::Bench(cmd) => bench::run(cmd).await,
            Command::Model { model_dir } => {
                let found = serve::locate_model(model_dir).await?;
                println!("{}", found.dir().display());
                Ok(())
            }
        }
        .map(|()| None)
    });
    match result {
        Ok(Some(code)) => code,
        Ok(None) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::Parser;

    /// Split a shell line into words (double and single quotes group).
    fn words(line: &str) -> Vec<String> {
        let (mut out, mut cur, mut quote) = (Vec::new(), String::new(), None);
        for c in line.chars() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, ' ') => {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                }
                _ => cur.push(c),
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }

    /// Every `engram ...` command the agent skill shows (in code blocks
    /// and inline code) parses.
    #[test]
    fn the_skill_shows_only_commands_that_parse() {
        let skill = include_str!("../../../skills/engram/SKILL.md");
        let mut commands = Vec::new();
        let mut in_block = false;
        for line in skill.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
                continue;
            }
            if in_block {
                commands.push(line.trim().to_string());
            } else {
                commands.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
            }
        }
        let commands: Vec<&String> = commands
            .iter()
            .filter(|c| c.starts_with("engram "))
            .collect();
        assert!(commands.len() >= 12, "{commands:?}");
        for c in commands {
            if let Err(e) = Cli::try_parse_from(words(c)) {
                panic!("`{c}` does not parse: {e}");
            }
        }
        assert!(skill.starts_with("---\nname: engram\ndescription: "));
    }
}
