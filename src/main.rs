//! The `dames` binary: with no subcommand it serves the site; otherwise it is
//! the engine's command line (`dames help`).

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    if let Some(code) = dames::cli::run(&args, &mut out, &mut err) {
        std::process::exit(code);
    }
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
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
