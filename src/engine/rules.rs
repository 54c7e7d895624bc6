//! Rule sets: the four named presets (international, English, Russian,
//! Brazilian) and any custom mix of their rules, as one small value, with the
//! text form the command line and the site's addresses use
//! (`english`, `international,size=8,flying=0`).

use super::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a man does when it reaches the far row in the middle of a capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Promotion {
    /// It stays a man and goes on capturing as a man; it is crowned only if
    /// the move ends there (international, Brazilian).
    StaysMan,
    /// It is crowned at once and goes on capturing as a king (Russian).
    BecomesKingContinues,
    /// It is crowned and the move ends there, even if it could jump on
    /// (English).
    EndsMove,
}

impl Promotion {
    pub const ALL: [Promotion; 3] = [Promotion::StaysMan, Promotion::BecomesKingContinues, Promotion::EndsMove];

    pub const fn name(self) -> &'static str {
        match self {
            Promotion::StaysMan => "stays_man",
            Promotion::BecomesKingContinues => "becomes_king_continues",
            Promotion::EndsMove => "ends_move",
        }
    }
}

/// A rule set. Every position, game and stored game carries one. It crosses
/// the wire and is stored in its text form (see [`Rules::parse`]), checked
/// once when it is read: a bad text never becomes some other rule set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Squares along an edge: 8, 10 or 12.
    pub size: u8,
    /// Rows of men each side starts with.
    pub rows: u8,
    /// Who moves first.
    pub first: Color,
    /// Men capture backwards as well as forwards.
    pub men_back: bool,
    /// Kings fly: they move and capture at any distance along a diagonal.
    pub flying: bool,
    /// A capture, when there is one, must be played. (Once started, a
    /// capture is always played to its end.)
    pub mandatory: bool,
    /// Among captures, only those taking the most pieces are legal (a king
    /// counts one); otherwise the player chooses freely.
    pub majority: bool,
    pub promotion: Promotion,
    /// A draw when this many moves of each side pass without a capture or a
    /// man's move (0: no such rule).
    pub draw_moves: u8,
    /// A draw when the same position, with the same side to move, comes
    /// round a third time.
    pub repetition: bool,
    /// A draw after this many moves of each side, whatever happens (0: no
    /// limit; at most 255). Only the daily challenge has one (its text form
    /// is `international,repetition=0,move_limit=150`).
    pub move_limit: u16,
}

/// The named rule sets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Preset {
    International,
    English,
    Russian,
    Brazilian,
}

impl Preset {
    pub const ALL: [Preset; 4] = [Preset::International, Preset::English, Preset::Russian, Preset::Brazilian];

    /// The name in the text form and in addresses.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::International => "international",
            Preset::English => "english",
            Preset::Russian => "russian",
            Preset::Brazilian => "brazilian",
        }
    }

    pub const fn rules(self) -> Rules {
        match self {
            Preset::International => Rules::INTERNATIONAL,
            Preset::English => Rules::ENGLISH,
            Preset::Russian => Rules::RUSSIAN,
            Preset::Brazilian => Rules::BRAZILIAN,
        }
    }

    /// The PDN `GameType` number of the variant.
    pub const fn pdn_game_type(self) -> u8 {
        match self {
            Preset::International => 20,
            Preset::English => 21,
            Preset::Russian => 25,
            Preset::Brazilian => 26,
        }
    }
}

impl Rules {
    /// FMJD international draughts: 10×10, majority capture, flying kings,
    /// men capture backwards, crowned only at the end of a move.
    pub const INTERNATIONAL: Rules = Rules {
        size: 10,
        rows: 4,
        first: Color::White,
        men_back: true,
        flying: true,
        mandatory: true,
        majority: true,
        promotion: Promotion::StaysMan,
        draw_moves: 25,
        repetition: true,
        move_limit: 0,
    };

    /// English draughts (checkers): Black starts, short kings, men capture
    /// forwards only, free choice of capture, crowning ends the move.
    pub const ENGLISH: Rules = Rules {
        size: 8,
        rows: 3,
        first: Color::Black,
        men_back: false,
        flying: false,
        mandatory: true,
        majority: false,
        promotion: Promotion::EndsMove,
        draw_moves: 40,
        repetition: true,
        move_limit: 0,
    };

    /// Russian draughts: flying kings, free choice, a man crowned
    /// mid-capture goes on as a king.
    pub const RUSSIAN: Rules = Rules {
        size: 8,
        rows: 3,
        first: Color::White,
        men_back: true,
        flying: true,
        mandatory: true,
        majority: false,
        promotion: Promotion::BecomesKingContinues,
        draw_moves: 15,
        repetition: true,
        move_limit: 0,
    };

    /// Brazilian draughts: the international rules on 8×8.
    pub const BRAZILIAN: Rules = Rules { size: 8, rows: 3, ..Rules::INTERNATIONAL };

    /// The daily challenge's rules, as they have always been: international,
    /// the 25-move rule, more than 150 moves of each side drawn, no
    /// repetition rule.
    pub const DAILY: Rules = Rules { repetition: false, move_limit: 150, ..Rules::INTERNATIONAL };

    /// The electronic board's rules: international draughts with the
    /// 25-move rule and its endgame rule (see
    /// [`ENDGAME_LIMIT_MOVES`](super::game::ENDGAME_LIMIT_MOVES)) in place
    /// of the repetition rule, as the tabletop devices had.
    pub const ELECTRONIC: Rules = Rules { repetition: false, ..Rules::INTERNATIONAL };

    /// The board sizes a rule set may have.
    pub const SIZES: [u8; 3] = [8, 10, 12];

    /// The most rows of men a board of `size` holds: all but the two
    /// middle rows, which stay empty. It is also the rows a board starts
    /// with unless the rules say otherwise.
    pub const fn max_rows(size: u8) -> u8 {
        (size / 2).saturating_sub(1)
    }

    /// The variant these rules are, the daily challenge's counting as
    /// international (its move limit and lack of a repetition rule are its
    /// own, not a custom set).
    pub fn variant(&self) -> Option<Preset> {
        if *self == Rules::DAILY {
            return Some(Preset::International);
        }
        self.preset()
    }

    /// The squares of `color`'s front row at the start (the row of its men
    /// nearest the middle), lowest number first.
    pub const fn front_row(&self, color: Color) -> std::ops::RangeInclusive<u8> {
        let per_row = self.size / 2;
        let row = match color {
            Color::White => self.size - self.rows,
            Color::Black => self.rows - 1,
        };
        row * per_row + 1..=(row + 1) * per_row
    }

    /// The preset these rules are exactly, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// The preset these rules differ least from (the first, on a tie).
    pub fn closest_preset(&self) -> Preset {
        Preset::ALL.into_iter().min_by_key(|p| self.differences(&p.rules()).len()).unwrap_or(Preset::International)
    }

    /// Dark squares on the board.
    pub const fn squares(&self) -> u8 {
        self.size * self.size / 2
    }

    /// Men each side starts with.
    pub const fn men_per_side(&self) -> u8 {
        self.rows * self.size / 2
    }

    /// Reads the text form: a preset name, then optional `key=value`
    /// overrides separated by commas.
    pub fn parse(spec: &str) -> Result<Rules, RulesError> {
        let mut parts = spec.split(',').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let preset =
            Preset::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| RulesError::UnknownPreset(name.into()))?;
        let mut rules = preset.rules();
        let mut rows_given = false;
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| RulesError::UnknownKey(part.into()))?;
            rules.set(key.trim(), value.trim())?;
            rows_given |= key.trim() == "rows";
        }
        // A board of another size starts, unless told otherwise, with its
        // usual rows of men: all but the two middle rows.
        if !rows_given {
            rules.rows = Rules::max_rows(rules.size);
        }
        rules.check()?;
        Ok(rules)
    }

    /// Sets one rule from its text form.
    fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue { key: key.to_string(), value: value.to_string() };
        let flag = || match value {
            "1" | "true" | "yes" => Ok(true),
            "0" | "false" | "no" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "size" => self.size = value.parse().map_err(|_| bad())?,
            "rows" => self.rows = value.parse().map_err(|_| bad())?,
            "first" => {
                self.first = match value {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(bad()),
                }
            }
            "men_back" => self.men_back = flag()?,
            "flying" => self.flying = flag()?,
            "mandatory" => self.mandatory = flag()?,
            "majority" => self.majority = flag()?,
            "promotion" => {
                self.promotion = Promotion::ALL.into_iter().find(|p| p.name() == value).ok_or_else(bad)?;
            }
            "draw_moves" => self.draw_moves = value.parse().map_err(|_| bad())?,
            "repetition" => self.repetition = flag()?,
            "move_limit" => self.move_limit = value.parse().map_err(|_| bad())?,
            _ => return Err(RulesError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Whether the values fit together: a board of 8, 10 or 12, and rows of
    /// men that leave at least two empty rows between the sides.
    pub fn check(&self) -> Result<(), RulesError> {
        if !Rules::SIZES.contains(&self.size) {
            return Err(RulesError::BadValue { key: "size".into(), value: self.size.to_string() });
        }
        if self.rows == 0 || self.rows > Rules::max_rows(self.size) {
            return Err(RulesError::RowsDoNotFit { rows: self.rows, size: self.size });
        }
        if self.move_limit > 255 {
            return Err(RulesError::BadValue { key: "move_limit".into(), value: self.move_limit.to_string() });
        }
        if self.draw_moves > MAX_DRAW_MOVES {
            return Err(RulesError::BadValue { key: "draw_moves".into(), value: self.draw_moves.to_string() });
        }
        Ok(())
    }

    /// The rules that differ from `other`, as `key=value` texts.
    fn differences(&self, other: &Rules) -> Vec<String> {
        let flag = |b: bool| if b { "1" } else { "0" };
        let mut out = Vec::new();
        if self.size != other.size {
            out.push(format!("size={}", self.size));
        }
        // The text form gives a board its usual rows unless `rows` is
        // written: write it whenever they are not the usual ones.
        if self.rows != Rules::max_rows(self.size) {
            out.push(format!("rows={}", self.rows));
        }
        if self.first != other.first {
            out.push(format!("first={}", if self.first == Color::White { "white" } else { "black" }));
        }
        if self.men_back != other.men_back {
            out.push(format!("men_back={}", flag(self.men_back)));
        }
        if self.flying != other.flying {
            out.push(format!("flying={}", flag(self.flying)));
        }
        if self.mandatory != other.mandatory {
            out.push(format!("mandatory={}", flag(self.mandatory)));
        }
        if self.majority != other.majority {
            out.push(format!("majority={}", flag(self.majority)));
        }
        if self.promotion != other.promotion {
            out.push(format!("promotion={}", self.promotion.name()));
        }
        if self.draw_moves != other.draw_moves {
            out.push(format!("draw_moves={}", self.draw_moves));
        }
        if self.repetition != other.repetition {
            out.push(format!("repetition={}", flag(self.repetition)));
        }
        if self.move_limit != other.move_limit {
            out.push(format!("move_limit={}", self.move_limit));
        }
        out
    }
}

/// Rules packed in one word, for positions: a position is copied at every
/// node of a search, and 32 bytes copy faster than 40. The capture rules sit
/// in the low bits, which the move generator compares whole.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct PackedRules(u32);

impl PackedRules {
    /// Bits 0–5: men_back, flying, mandatory, majority, promotion (2 bits).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    const MOVES_MASK: u32 = 0x3F;

    pub(crate) const fn of(r: &Rules) -> PackedRules {
        let promotion = match r.promotion {
            Promotion::StaysMan => 0,
            Promotion::BecomesKingContinues => 1,
            Promotion::EndsMove => 2,
        };
        let first = match r.first {
            Color::White => 0,
            Color::Black => 1,
        };
        PackedRules(
            (r.men_back as u32)
                | (r.flying as u32) << 1
                | (r.mandatory as u32) << 2
                | (r.majority as u32) << 3
                | promotion << 4
                | (r.repetition as u32) << 6
                | first << 7
                | ((r.size / 2) as u32 & 0xF) << 8
                | (r.rows as u32 & 0xF) << 12
                | (r.draw_moves as u32) << 16
                | (r.move_limit as u32 & 0xFF) << 24,
        )
    }

    pub(crate) const fn unpack(self) -> Rules {
        let b = self.0;
        Rules {
            men_back: b & 1 != 0,
            flying: b & 2 != 0,
            mandatory: b & 4 != 0,
            majority: b & 8 != 0,
            promotion: match (b >> 4) & 3 {
                0 => Promotion::StaysMan,
                1 => Promotion::BecomesKingContinues,
                _ => Promotion::EndsMove,
            },
            repetition: b & 64 != 0,
            first: if b & 128 != 0 { Color::Black } else { Color::White },
            size: ((b >> 8) & 0xF) as u8 * 2,
            rows: ((b >> 12) & 0xF) as u8,
            draw_moves: (b >> 16) as u8,
            move_limit: (b >> 24) as u16,
        }
    }

    /// Kings fly.
    #[inline(always)]
    pub(crate) const fn flying(self) -> bool {
        self.0 & 2 != 0
    }

    /// A capture, when there is one, must be played.
    #[inline(always)]
    pub(crate) const fn mandatory(self) -> bool {
        self.0 & 4 != 0
    }

    /// Only the longest captures are legal.
    #[inline(always)]
    pub(crate) const fn majority(self) -> bool {
        self.0 & 8 != 0
    }

    /// Men each side starts with.
    #[inline(always)]
    pub(crate) const fn men_per_side(self) -> u8 {
        ((self.0 >> 8) & 0xF) as u8 * ((self.0 >> 12) & 0xF) as u8
    }

    /// The capture rules alone: equal for rule sets that capture alike.
    /// (The browser build reads the rules at run time instead.)
    #[inline(always)]
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) const fn moves(self) -> u32 {
        self.0 & Self::MOVES_MASK
    }
}

/// The longest no-progress count a rule set may have.
pub const MAX_DRAW_MOVES: u8 = 200;

impl Default for Rules {
    fn default() -> Rules {
        Rules::INTERNATIONAL
    }
}

/// The text form: the closest preset, then what differs from it
/// (`english`, `international,size=8,flying=0`). [`Rules::parse`] reads it
/// back.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let preset = self.closest_preset();
        f.write_str(preset.name())?;
        for difference in self.differences(&preset.rules()) {
            write!(f, ",{difference}")?;
        }
        Ok(())
    }
}

/// Why a rules text was refused; each names the part at fault.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RulesError {
    UnknownPreset(String),
    UnknownKey(String),
    BadValue { key: String, value: String },
    RowsDoNotFit { rows: u8, size: u8 },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(name) => {
                write!(f, "unknown rule set {name:?} (international, english, russian or brazilian)")
            }
            RulesError::UnknownKey(key) => write!(f, "unknown rule {key:?}"),
            RulesError::BadValue { key, value } => write!(f, "bad value {value:?} for {key}"),
            RulesError::RowsDoNotFit { rows, size } => {
                write!(f, "rows={rows} does not fit a board of {size} (1 to {} rows)", Rules::max_rows(*size))
            }
        }
    }
}

impl std::error::Error for RulesError {}

impl std::str::FromStr for Rules {
    type Err = RulesError;

    fn from_str(spec: &str) -> Result<Rules, RulesError> {
        Rules::parse(spec)
    }
}

/// Written in the text form (`"english"`), as addresses and the database
/// have it.
impl Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Read from the text form and checked: a bad text is an error naming the
/// part at fault, never a default rule set.
impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        let text = String::deserialize(deserializer)?;
        Rules::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_cross_the_wire_in_their_text_form_and_are_checked_when_read() {
        let custom = Rules { flying: false, ..Rules::BRAZILIAN };
        assert_eq!(serde_json::to_string(&Rules::ENGLISH).unwrap(), r#""english""#);
        assert_eq!(serde_json::to_string(&custom).unwrap(), r#""brazilian,flying=0""#);
        assert_eq!(serde_json::from_str::<Rules>(r#""international,size=8,flying=0""#).unwrap(), custom);
        for bad in [r#""checkers""#, r#""english,size=9""#, r#""english,rows=4""#, r#""english,kings=1""#, "3"] {
            assert!(serde_json::from_str::<Rules>(bad).is_err(), "{bad} is refused");
        }
        assert_eq!("russian".parse::<Rules>(), Ok(Rules::RUSSIAN));
    }

    #[test]
    fn the_rules_say_what_their_board_looks_like() {
        assert_eq!(Rules::SIZES.map(Rules::max_rows), [3, 4, 5]);
        assert_eq!(Rules::INTERNATIONAL.front_row(Color::White), 31..=35);
        assert_eq!(Rules::INTERNATIONAL.front_row(Color::Black), 16..=20);
        assert_eq!(Rules::ENGLISH.front_row(Color::White), 21..=24);
        assert_eq!(Rules::ENGLISH.front_row(Color::Black), 9..=12);
        let twelve = Rules::parse("international,size=12").unwrap();
        assert_eq!(twelve.front_row(Color::White), 43..=48);
        assert_eq!(Rules::DAILY.variant(), Some(Preset::International));
        assert_eq!(Rules::ELECTRONIC.variant(), None);
        assert_eq!(Rules { flying: false, ..Rules::BRAZILIAN }.variant(), None);
    }

    #[test]
    fn presets_read_and_write_by_name() {
        for preset in Preset::ALL {
            let rules = Rules::parse(preset.name()).unwrap();
            assert_eq!(rules, preset.rules());
            assert_eq!(rules.preset(), Some(preset));
            assert_eq!(rules.to_string(), preset.name());
        }
        assert_eq!(Rules::ENGLISH.first, Color::Black);
        assert_eq!(Rules::BRAZILIAN.squares(), 32);
        assert_eq!(Rules::INTERNATIONAL.men_per_side(), 20);
        assert_eq!(Rules::RUSSIAN.men_per_side(), 12);
    }

    #[test]
    fn overrides_change_one_rule_each_and_round_trip() {
        let rules = Rules::parse("international,size=8,flying=0").unwrap();
        assert_eq!((rules.size, rules.flying, rules.rows), (8, false, 3), "three rows on 8×8 unless told");
        assert_eq!(Rules::parse("international,size=8").unwrap(), Rules::BRAZILIAN);
        assert!(Rules::parse("international,size=8,rows=4").is_err(), "4 rows leave no room on 8×8");
        let rules = Rules::parse("international, size=8 ,rows=3,flying=0").unwrap();
        assert_eq!(Rules::parse(&rules.to_string()).unwrap(), rules);
        assert_eq!(rules.to_string(), "brazilian,flying=0", "written from the closest preset");
        let custom =
            Rules::parse("english,mandatory=0,first=white,promotion=stays_man,draw_moves=0,repetition=0").unwrap();
        assert_eq!(Rules::parse(&custom.to_string()).unwrap(), custom);
        assert_eq!(custom.preset(), None);
        assert_eq!(Rules::parse("russian,size=12,rows=5").unwrap().men_per_side(), 30);
        // Unusual rows on another board survive the round trip.
        let sparse = Rules::parse("english,size=10,rows=3").unwrap();
        assert_eq!(Rules::parse(&sparse.to_string()).unwrap(), sparse, "{sparse}");
        assert_eq!(Rules::DAILY.to_string(), "international,repetition=0,move_limit=150");
        assert_eq!(Rules::parse(&Rules::DAILY.to_string()), Ok(Rules::DAILY));
        assert!(Rules::parse("international,move_limit=256").is_err());
    }

    #[test]
    fn every_rule_set_reads_back_from_its_text() {
        for size in [8u8, 10, 12] {
            for rows in 1..size / 2 {
                for bits in 0..64u32 {
                    for promotion in Promotion::ALL {
                        let rules = Rules {
                            size,
                            rows,
                            first: if bits & 1 != 0 { Color::Black } else { Color::White },
                            men_back: bits & 2 != 0,
                            flying: bits & 4 != 0,
                            mandatory: bits & 8 != 0,
                            majority: bits & 16 != 0,
                            promotion,
                            draw_moves: (bits * 3) as u8,
                            repetition: bits & 32 != 0,
                            move_limit: 0,
                        };
                        assert_eq!(Rules::parse(&rules.to_string()), Ok(rules), "{rules}");
                    }
                }
            }
        }
    }

    #[test]
    fn packed_rules_unpack_to_themselves() {
        let mut all = vec![Rules::DAILY];
        all.extend(Preset::ALL.map(Preset::rules));
        all.push(Rules::parse("russian,size=12,rows=5,first=black,draw_moves=200,repetition=0").unwrap());
        all.push(Rules::parse("english,men_back=1,flying=1,mandatory=0,majority=1,promotion=stays_man").unwrap());
        for rules in all {
            assert_eq!(PackedRules::of(&rules).unpack(), rules, "{rules}");
        }
        assert_eq!(PackedRules::of(&Rules::BRAZILIAN).moves(), PackedRules::of(&Rules::INTERNATIONAL).moves());
        assert_ne!(PackedRules::of(&Rules::RUSSIAN).moves(), PackedRules::of(&Rules::INTERNATIONAL).moves());
    }

    #[test]
    fn a_bad_spec_names_what_is_wrong() {
        let err = |spec: &str| Rules::parse(spec).unwrap_err().to_string();
        assert!(err("checkers").contains("\"checkers\""));
        assert!(err("english,kings=1").contains("\"kings\""));
        assert!(err("english,flying=maybe").contains("flying"));
        assert!(err("english,size=9").contains("size"));
        assert!(err("english,rows=4").contains("rows=4"));
        assert!(err("english,promotion=never").contains("promotion"));
        assert!(err("english,draw_moves=999").contains("draw_moves"));
        assert!(err("english,first").contains("\"first\""));
    }
}
