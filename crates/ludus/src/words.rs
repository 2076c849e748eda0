//! Counts in words for every front end: "1 level", "2 levels", "1 box".

/// `n` and `noun`, plural unless `n` is one: `counted(2, "box")` is "2 boxes".
pub fn counted(n: usize, noun: &str) -> String {
    format!("{n} {}", plural(n, noun))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(counted(1, "level"), "1 level");
        assert_eq!(counted(0, "error"), "0 errors");
        assert_eq!(counted(2, "box"), "2 boxes");
        assert_eq!(counted(3, "push"), "3 pushes");
        assert_eq!(plural(1, "goal"), "goal");
    }
}
