#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ludus_fuzz::xiangqi_xqf(data));
