// DOM building through d3 selections. Every piece of run data goes in with .text(), never .html().

/** Append a `tag` with an optional class and text to a selection or element. */
function el(parent, tag, cls, text) {
  const sel = (parent instanceof Element ? d3.select(parent) : parent).append(tag);
  if (cls) sel.attr('class', cls);
  if (text !== undefined && text !== null) sel.text(String(text));
  return sel;
}

/** Make an element behave as a button for mouse and keyboard. */
function clickable(sel, onActivate) {
  return sel
    .attr('tabindex', 0)
    .attr('role', 'button')
    .on('click', (event) => onActivate(event))
    .on('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onActivate(event);
      }
    });
}
