//! The hook between checks and the HTML report: a [`CheckResult`] as the report keeps it
//! ([`report_data`]), and [`add_to_report`], which the CLI and the libtest trials call.
//!
//! A live case's entry carries its new recording and the scenario's steps (from the live mode's
//! outcome of that cast).

use std::time::Duration;

use super::discover::Case;
use super::result::{CheckResult, Status};
use crate::assert::{self, Outcome, Place};
use crate::config::Config;
use crate::report::{
    content_hash, CaseInfo, Images, LiveInfo, ReportDir, ResultData, SnapshotData, StepInfo,
};

/// Adds the results of `case` to `report` under `key` (the cast's stem, or a test name when
/// each checkpoint writes its own file). Errors are the caller's to print: a report that
/// cannot be written never fails a check.
pub fn add_to_report(
    report: &ReportDir,
    config: &Config,
    case: &Case,
    key: &str,
    results: &[CheckResult],
    duration: Duration,
) -> std::io::Result<()> {
    let live = live_info(case);
    let info = CaseInfo {
        stem: &case.stem,
        cast: &case.cast,
        masks: &case.masks,
        live: live.as_ref(),
        engine: case.engine,
    };
    let data: Vec<ResultData> = results.iter().map(report_data).collect();
    report.add(config, &info, key, data, duration)
}

/// Adds the result of the screenshot `shot` to `report`, with the image its cast draws now
/// (`actual`) when that is not the committed one.
pub fn add_screenshot_to_report(
    report: &ReportDir,
    config: &Config,
    shot: &crate::config::Screenshot,
    result: &CheckResult,
    actual: Option<&[u8]>,
    duration: Duration,
) -> std::io::Result<()> {
    report.add_screenshot(config, shot, report_data(result), actual, duration)
}

/// What the report shows of a case this process recorded live: its new recording and the
/// scenario's steps, the one that failed marked.
fn live_info(case: &Case) -> Option<LiveInfo> {
    let outcome = super::live::live_outcome(&case.cast)?;
    let scenario = case.scenario.as_ref()?;
    let steps = scenario
        .steps
        .iter()
        .map(|step| {
            let line = step.origin.as_ref().map_or(0, |o| o.line);
            let checkpoint = match &step.action {
                crate::record::Action::Snapshot(name) => Some(name.clone()),
                _ => None,
            };
            let failed = line != 0 && outcome.failed_line == Some(line);
            StepInfo::new(line, step.describe(), checkpoint, failed)
        })
        .collect();
    let overheads = super::recording_times(&outcome.recording)
        .map(|t| t.overheads.iter().map(|s| s * 1000.0).collect())
        .unwrap_or_default();
    Some(LiveInfo::new(outcome.recording, steps).with_overheads(overheads))
}

/// The result of a check, with the failing goldens' texts (the golden is read again for
/// its hash).
pub(crate) fn report_data(r: &CheckResult) -> ResultData {
    let status = match r.status() {
        Status::Ok => "ok",
        Status::Updated => "updated",
        _ => "failed",
    };
    let snapshots = r
        .snapshots
        .iter()
        .filter(|s| !s.outcome.passed())
        // (A screenshot's image has no golden format, and fails as the screenshot's result.)
        .filter_map(|s| Some((s, s.format?)))
        .map(|(s, format)| {
            // Never through a symbolic link (`assert::read_golden`): the report is an artifact.
            let golden = assert::read_golden(&s.path).ok().flatten();
            let golden_hash = golden.as_deref().map(content_hash);
            let (missing, expected, place, row, style_changes) = match &s.outcome {
                Outcome::Mismatch { difference, .. } => {
                    let expected = if format.is_binary() {
                        None
                    } else {
                        golden
                            .as_deref()
                            .map(|b| String::from_utf8_lossy(b).into_owned())
                    };
                    let (place, row) = match &difference.place {
                        Place::Cell(at) => (at.to_string(), Some(at.row)),
                        Place::Header(field) => (field.clone(), None),
                        #[allow(unreachable_patterns)]
                        _ => (String::new(), None),
                    };
                    (
                        false,
                        expected,
                        Some(place),
                        row,
                        difference.style_changes.clone(),
                    )
                }
                _ => (true, None, None, None, Vec::new()),
            };
            let diff = match &expected {
                Some(e) => assert::unified(e, &s.actual, false),
                None => String::new(),
            };
            SnapshotData {
                name: s.name.clone(),
                format,
                missing,
                expected,
                actual: s.actual.clone(),
                golden_hash,
                diff,
                place,
                row,
                style_changes,
                images: Images::default(),
            }
        })
        .collect();
    ResultData {
        test: r.test.clone(),
        checkpoint: r.checkpoint.clone(),
        line: r.line,
        time: r.time,
        status: status.to_string(),
        error: r.error.clone(),
        snapshots,
        screenshot: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert::Format;
    use crate::harness::SnapshotResult;

    #[test]
    fn the_report_takes_each_goldens_format_from_its_result_not_its_name() {
        let missing = |name: &str, format| SnapshotResult {
            path: std::path::Path::new("target/tmp/no-such-snapshots").join(name),
            name: name.into(),
            format,
            outcome: Outcome::Missing { pending: None },
            actual: "actual\n".into(),
        };
        let mut r = CheckResult::new("demo::end", "casts/demo.cast", "end");
        r.snapshots = vec![
            missing("demo/end.styled.txt", Some(Format::Styled)),
            // (A name that says otherwise: the result is what counts.)
            missing("demo/end.png", Some(Format::Text)),
            // A screenshot's image has no golden format: not a golden of the report.
            missing("screenshot:docs/demo.png", None),
        ];
        let data = report_data(&r);
        let got: Vec<(&str, Format)> = data
            .snapshots
            .iter()
            .map(|s| (s.name.as_str(), s.format))
            .collect();
        assert_eq!(
            got,
            [
                ("demo/end.styled.txt", Format::Styled),
                ("demo/end.png", Format::Text)
            ]
        );
        assert!(data.failed());
    }
}
