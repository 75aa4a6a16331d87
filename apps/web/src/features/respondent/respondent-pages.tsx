/** The stand-alone setup check (/dot-test): consent, camera, face check, calibration, the measured accuracy. */
export { DotTestPage } from '../dot-test/dot-test-page.tsx';

/** The respondent's entry from a quota link: consent, camera, calibration, content, save, end. */
export { ProjectResearchPage } from './research-page.tsx';
