//! The `dames` binary: with no subcommand it serves the site; otherwise it is
//! the engine's command line (`dames help`).

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The two commands that run servers and clients of their own.
    match args.first().map(String::as_str) {
        Some("cluster") => std::process::exit(dames::ops::cluster::command(&args[1..]).await),
        Some("loadtest") => std::process::exit(dames::ops::loadtest::command(&args[1..]).await),
        _ => {}
    }
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    if let Some(code) = dames::cli::run(&args, &mut out, &mut err) {
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
