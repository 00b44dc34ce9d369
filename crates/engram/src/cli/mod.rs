//! The client commands of `engram` (`whoami`, `add`, `search`,
//! `profile`, `remember`, `update`, `forget`, `tags`, `keys`, `logs`,
//! `config`, `setup`, `help`): clients of a running server's HTTP API through
//! `engram-client`, never of its database.
//!
//! Conventions every command keeps: human-readable output on stdout by
//! default, `--json` for scripts and agents (the answer as JSON; a failure
//! as `{error, message, hint?}`); exit codes 0 ok, 1 error, 2
//! authentication needed or refused, 3 permission denied, 4 not found.
//! The key comes from `ENGRAM_API_KEY`, else `engram config set api-key`,
//! else the credentials that `engram serve` wrote on its first run; the
//! server from `--url` / `ENGRAM_URL`, else the config's `url`, else those
//! credentials, else the default address.

mod batch;
mod commands;
pub mod config;
mod connections;
mod docs;
mod documents;
pub mod help;
mod keys;
mod memories;
mod setup;
mod tags;

pub use commands::{AddArgs, ProfileArgs, SearchArgs};

use crate::config::config_dir;
use config::ConfigCommand;
use engram_client::{Client, ClientError};
use serde_json::{json, Value};
use std::process::ExitCode;

/// Where a server listens unless told otherwise.
pub const DEFAULT_URL: &str = "http://127.0.0.1:6767";

/// Options every client command takes.
#[derive(clap::Args, Debug, Clone)]
pub struct Common {
    /// Print JSON (the answer, or `{error, message, hint}` on failure).
    #[arg(long, global = true)]
    pub json: bool,
    /// The server's base URL (default: the first-run credentials', else
    /// http://127.0.0.1:6767).
    #[arg(long, env = "ENGRAM_URL", global = true)]
    pub url: Option<String>,
}

/// A failure as the CLI reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct CliError {
    pub code: u8,
    pub error: String,
    pub message: String,
    pub hint: Option<String>,
    /// What did happen, for a partial failure (in the JSON report).
    pub details: Option<Value>,
}

impl CliError {
    pub fn new(code: u8, error: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            error: error.into(),
            message: message.into(),
            hint: None,
            details: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// A client failure: the exit code follows the HTTP status.
    pub fn from_client(e: ClientError, base: &str) -> Self {
        match e {
            ClientError::Api {
                status: 401,
                message,
                ..
            } => CliError::new(2, "authentication_failed", message)
                .hint("check ENGRAM_API_KEY (or the credentials `engram serve` wrote)"),
            ClientError::Api {
                status: 403,
                message,
                ..
            } => CliError::new(3, "permission_denied", message),
            ClientError::Api {
                status: 404,
                message,
                ..
            } => CliError::new(4, "not_found", message),
            ClientError::Api { kind, message, .. } => CliError::new(1, &kind, message),
            ClientError::Unreachable { reason, .. } => {
                CliError::new(1, "unreachable", format!("cannot reach {base}: {reason}"))
                    .hint("is `engram serve` running there? Set --url or ENGRAM_URL")
            }
            ClientError::Decode(m) => CliError::new(1, "bad_answer", m),
        }
    }

    fn report(&self, json: bool) {
        if json {
            let mut v = json!({"error": self.error, "message": self.message});
            if let Some(h) = &self.hint {
                v["hint"] = Value::String(h.clone());
            }
            if let Some(d) = &self.details {
                v["details"] = d.clone();
            }
            out(v);
        } else {
            eprintln!("error: {}", self.message);
            if let Some(h) = &self.hint {
                eprintln!("hint: {h}");
            }
        }
    }
}

/// The first-run credentials, if `engram serve` wrote them.
fn credentials() -> Option<Value> {
    let path = config_dir().join("credentials.json");
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// The client the environment and credentials describe.
pub fn connect(common: &Common) -> Result<Client, CliError> {
    let creds = credentials();
    let from_creds = |field: &str| {
        creds
            .as_ref()
            .and_then(|c| c[field].as_str())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let settings = config::load();
    let from_settings = |field: &str| {
        settings
            .get(field)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let key = std::env::var("ENGRAM_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty())
        .or_else(|| from_settings("apiKey"))
        .or_else(|| from_creds("apiKey"))
        .ok_or_else(|| {
            CliError::new(2, "auth_required", "no API key").hint(format!(
                "set ENGRAM_API_KEY, or start `engram serve` once: its first run writes a key to {}",
                config_dir().join("credentials.json").display()
            ))
        })?;
    let base = common
        .url
        .clone()
        .filter(|u| !u.trim().is_empty())
        .or_else(|| from_settings("url"))
        .or_else(|| from_creds("baseUrl"))
        .unwrap_or_else(|| DEFAULT_URL.to_string());
    Client::new(&base, key.trim()).map_err(|e| CliError::from_client(e, &base))
}

/// The client commands.
#[derive(clap::Subcommand, Debug)]
pub enum ClientCommand {
    /// Check the server and key; `--prompt` prints a prompt that tells a
    /// coding agent how to integrate Engram into this project.
    Setup {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: setup::SetupArgs,
    },
    /// Who the API key is: its organisation, scope and server.
    Whoami {
        #[command(flatten)]
        common: Common,
    },
    /// Add a document: text, a text file, a URL, or standard input.
    Add {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: AddArgs,
    },
    /// Search memories (or documents) for a query.
    Search {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: SearchArgs,
    },
    /// What is known about a container tag.
    Profile {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: ProfileArgs,
    },
    /// Remember one fact in a container tag.
    Remember {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: memories::RememberArgs,
    },
    /// Give a memory a new version.
    Update {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: memories::UpdateArgs,
    },
    /// Forget a memory (by exact text or --id).
    Forget {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: memories::ForgetArgs,
    },
    /// Container tags: list, info, create, context, delete, merge.
    Tags {
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        cmd: tags::TagsCommand,
    },
    /// The client's settings: get, set or unset `url` and `api-key`.
    Config {
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        cmd: ConfigCommand,
    },
    /// The organisation's API keys: list, create, rename, revoke, scoped.
    Keys {
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        cmd: keys::KeysCommand,
    },
    /// Connections to outside sources: list, show, add, sync, remove.
    Connections {
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        cmd: connections::ConnectionsCommand,
    },
    /// The organisation's documents: list, get, chunks, status, delete.
    Documents {
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        cmd: documents::DocumentsCommand,
    },
    /// Search or read Engram's own documentation (offline, no server needed).
    Docs {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: docs::DocsArgs,
    },
    /// Serve MCP (Model Context Protocol) on standard input and output, for
    /// agents: memory tools against the server, and a docs search.
    Mcp {
        #[command(flatten)]
        common: Common,
    },
    /// The organisation's recorded requests, newest first.
    Logs {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: tags::LogsArgs,
    },
}

/// Run a client command; its exit code.
pub async fn dispatch(command: ClientCommand) -> ExitCode {
    match command {
        ClientCommand::Setup { common, args } => {
            let json = common.json;
            finish(json, setup::run(common, args).await)
        }
        ClientCommand::Whoami { common } => run(common, whoami).await,
        ClientCommand::Add { common, args } => run(common, |c, o| commands::add(c, o, args)).await,
        ClientCommand::Search { common, args } => {
            run(common, |c, o| commands::search(c, o, args)).await
        }
        ClientCommand::Profile { common, args } => {
            run(common, |c, o| commands::profile(c, o, args)).await
        }
        ClientCommand::Remember { common, args } => {
            run(common, |c, o| memories::remember(c, o, args)).await
        }
        ClientCommand::Update { common, args } => {
            run(common, |c, o| memories::update(c, o, args)).await
        }
        ClientCommand::Forget { common, args } => {
            run(common, |c, o| memories::forget(c, o, args)).await
        }
        ClientCommand::Config { common, cmd } => finish(common.json, config::run(&common, cmd)),
        ClientCommand::Keys { common, cmd } => run(common, |c, o| keys::keys(c, o, cmd)).await,
        ClientCommand::Connections { common, cmd } => {
            run(common, |c, o| connections::connections(c, o, cmd)).await
        }
        ClientCommand::Tags { common, cmd } => run(common, |c, o| tags::tags(c, o, cmd)).await,
        ClientCommand::Logs { common, args } => run(common, |c, o| tags::logs(c, o, args)).await,
        ClientCommand::Documents { common, cmd } => {
            run(common, |c, o| documents::documents(c, o, cmd)).await
        }
        ClientCommand::Docs { common, args } => {
            let json = common.json;
            finish(json, docs::docs(common, args).await)
        }
        ClientCommand::Mcp { common } => {
            let json = common.json;
            finish(json, docs::mcp(common).await)
        }
    }
}

/// Run a client command and turn its outcome into an exit code.
async fn run<F, Fut>(common: Common, command: F) -> ExitCode
where
    F: FnOnce(Client, Common) -> Fut,
    Fut: std::future::Future<Output = Result<(), CliError>>,
{
    let json = common.json;
    let outcome = match connect(&common) {
        Ok(client) => command(client, common).await,
        Err(e) => Err(e),
    };
    finish(json, outcome)
}

/// Report a failure (as JSON with `json`); the exit code.
fn finish(json: bool, outcome: Result<(), CliError>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            e.report(json);
            ExitCode::from(e.code)
        }
    }
}

/// Write a line to stdout; a closed pipe (`engram help | head`) ends the
/// output quietly instead of failing.
pub fn out(line: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Whether stdout takes colour: a terminal, and `NO_COLOR` unset.
fn colour() -> bool {
    use std::io::IsTerminal;
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    })
}

/// `s` in bold, on a terminal.
pub fn bold(s: &str) -> String {
    if colour() {
        format!("\x1b[1m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// `s` dimmed, on a terminal.
pub fn dim(s: &str) -> String {
    if colour() {
        format!("\x1b[2m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// A progress bar on stderr, only on a terminal and never with `--json`
/// (hidden otherwise); `len` 0 makes it a spinner.
pub fn progress(common: &Common, len: u64, what: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::IsTerminal;
    if common.json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (b, template) = if len == 0 {
        (ProgressBar::new_spinner(), "{spinner} {msg} ({elapsed})")
    } else {
        (
            ProgressBar::new(len),
            "{msg:>10} [{bar:30}] {pos}/{len} ({elapsed})",
        )
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        b.set_style(style.progress_chars("=> "));
    }
    b.set_message(what.to_string());
    b.enable_steady_tick(std::time::Duration::from_millis(120));
    b
}

/// Print `value` as JSON, or `human` when not asked for JSON.
pub fn print(common: &Common, value: &impl serde::Serialize, human: impl FnOnce() -> String) {
    if common.json {
        out(serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".into()));
    } else {
        out(human());
    }
}

/// `engram whoami`: the key, its organisation and scope, and the server.
pub async fn whoami(client: Client, common: Common) -> Result<(), CliError> {
    let base = client.base().to_string();
    let s = client
        .session()
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    let mut v = serde_json::to_value(&s).unwrap_or_default();
    v["baseUrl"] = Value::String(base.clone());
    print(&common, &v, || {
        let scope = match &s.scope.container_tag {
            Some(tag) => format!("scoped to container tag `{tag}`"),
            None => "full access".to_string(),
        };
        format!(
            "key:          {} ({})\norganisation: {} ({})\nscope:        {scope}\nserver:       {base}",
            s.user.name, s.user.id, s.org.name, s.org.slug
        )
    });
    Ok(())
}
