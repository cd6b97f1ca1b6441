/**
 * How late an answer may come after its deadline, cancel or close, in a test that bounds a time
 * because the bound is the behaviour. The margin holds while both cores are busy with other work
 * (`stress-ng --cpu 2` beside the suite); a quiet machine answers within ~20 ms. What such a bound
 * rules out — waiting for the tool's own end, seconds or a minute away — stays far past it. How fast
 * things are is measured in bench/, never here.
 */
export const LATENESS_MARGIN_MS = 2_000;
