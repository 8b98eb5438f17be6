/** The name and version a report says wrote it (a lock run's and a queue run's alike). */
export const GENERATOR = 'fencecheck 0.1.0';
