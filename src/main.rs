//! The `dames` binary: with no subcommand (or `serve`) it serves the site;
//! otherwise it runs the subcommand clap parsed (`dames --help`).

use clap::Parser;

#[tokio::main]
async fn main() {
    // Clap itself answers --help and a bad command line (exit status 2).
    let cli = dames::cli::Cli::parse();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    if let Some(code) = dames::cli::run(cli, &mut out, &mut err) {
        std::process::exit(code);
    }
    if let Err(e) = dames::server::observe::init_logs() {
        eprintln!("dames: {e}");
        std::process::exit(2);
    }
    let config = match dames::server::Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("dames: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = dames::server::serve(config).await {
        eprintln!("dames: {e}");
        std::process::exit(1);
    }
}
