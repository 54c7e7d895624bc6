//! UTC days as the site names them (`YYYY-MM-DD`): the daily challenge's
//! key, and the days a leaderboard links to.

/// A day as the site writes it: `YYYY-MM-DD`.
pub fn day_text(date: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year(), date.month() as u8, date.day())
}

/// Today's UTC date: the daily challenge's key.
pub fn today_utc() -> String {
    day_text(time::OffsetDateTime::now_utc().date())
}

fn parse_date(text: &str) -> Option<time::Date> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year: i32 = text[0..4].parse().ok()?;
    let month = time::Month::try_from(text[5..7].parse::<u8>().ok()?).ok()?;
    time::Date::from_calendar_date(year, month, text[8..10].parse().ok()?).ok()
}

/// `YYYY-MM-DD` naming a real date, written back the site's way.
pub fn parse_day(text: &str) -> Option<String> {
    parse_date(text).map(day_text)
}

/// The day `delta` days before or after `day`.
pub fn shift_day(day: &str, delta: i64) -> Option<String> {
    parse_date(day)?.checked_add(time::Duration::days(delta)).map(day_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_checked_and_shifted() {
        assert_eq!(parse_day("2026-11-29").as_deref(), Some("2026-11-29"));
        for bad in ["2026-02-30", "2026-13-01", "26-11-29", "2026/11/29", "<script>", "", "2026-1-299"] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
        assert_eq!(shift_day("2026-12-31", 1).as_deref(), Some("2027-01-01"));
        assert_eq!(shift_day("2026-03-01", -1).as_deref(), Some("2026-02-28"));
        assert_eq!(shift_day("nonsense", 1), None);
        assert_eq!(today_utc().len(), 10);
    }
}
