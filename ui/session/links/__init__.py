"""Links: what a page's URL says (`urls`), what a link may train (`budget`), a sample
link's settings read into a run with notes (`reading`), and the notes and notices a link
leaves for the page to show (`notices`)."""
