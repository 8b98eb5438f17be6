// A shrunk run's story (src/report/story.ts): its lines above the timeline, which moves up to follow
// them, focused on the anomaly that tells the story, so the first view is the failure in one picture.
// Both go above the checkers' cards and the replay (they follow the timeline), which would otherwise
// take the first screen.

/** Show `story` ({ anomaly, lines }) in `section`, move it and the timeline above the checkers, then `focus()` its anomaly. */
function showStory(story, section, focus) {
  const checkers = document.getElementById('checkers');
  if (checkers) checkers.before(section);
  section.hidden = false;
  const head = el(section, 'h2', 'story-title', 'What happened');
  el(head, 'span', 'muted', ' · the shrunk plan’s failure; the timeline below is zoomed to it (Escape shows the whole run)');
  const list = el(section, 'ol', 'story-lines');
  for (const line of story.lines) el(list, 'li', null, line);
  const timeline = document.getElementById('timeline-section');
  section.after(timeline);
  focus();
}
