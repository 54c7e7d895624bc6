fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    match dames::cli::run(&args, &mut out, &mut err) {
        Some(code) => std::process::exit(code),
        None => eprintln!("serving is not built yet"),
    }
}
