/** One line of `fencecheck doctor`: what was checked, whether it passed, what was found, what to do. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  hint?: string;
  /** Said, not counted: whether the other provider can run here. */
  advisory?: boolean;
}
