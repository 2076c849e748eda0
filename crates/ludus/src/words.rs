//! Counts in words for every front end: "1 level", "2 levels", "1 box".

/// `n` and `noun`, plural unless `n` is one: `counted(2, "box")` is "2 boxes".
pub fn counted(n: usize, noun: &str) -> String {
    format!("{n} {}", plural(n, noun))
}

/// `12,345,678`: a count with its thousands grouped.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `noun` as `n` of it: `plural(1, "level")` is "level", `plural(3, "push")` "pushes".
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        noun.to_string()
    } else if ["s", "x", "sh", "ch"].iter().any(|end| noun.ends_with(end)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// `text` broken into lines of at most `width` characters, at spaces where
/// it can be (a word longer than a line is cut). Line breaks in `text` are
/// kept; an empty text gives no lines.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        let mut len = 0;
        for word in paragraph.split_whitespace() {
            let mut word: Vec<char> = word.chars().collect();
            if len > 0 && len + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
                len = 0;
            }
            while word.len() > width {
                let rest = word.split_off(width);
                if len > 0 {
                    lines.push(std::mem::take(&mut line));
                }
                lines.push(word.into_iter().collect());
                len = 0;
                word = rest;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            len += word.len();
            line.extend(word);
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij xy", 4), ["abcd", "efgh", "ij", "xy"]);
        assert_eq!(wrap("a\nb c", 10), ["a", "b c"]);
        assert!(wrap("", 5).is_empty());
    }

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(counted(1, "level"), "1 level");
        assert_eq!(counted(0, "error"), "0 errors");
        assert_eq!(counted(2, "box"), "2 boxes");
        assert_eq!(counted(3, "push"), "3 pushes");
        assert_eq!(plural(1, "goal"), "goal");
    }
}
