// What this page is, read once when it loads: the query's embed flags (?embed=1, &edit=1), the address links are
// built on, and the elements of index.html the modules use (the canvas, the overlay's controls by id).
export const params = new URLSearchParams(location.search);
export const embedMode = /^(1|true|yes)$/i.test(params.get('embed') || '');
export const editable = !embedMode || /^(1|true|yes)$/i.test(params.get('edit') || '');
export const canvas = document.getElementById('canvas');
export const ui = (id) => document.getElementById(id);
export const pageBase = () => location.origin + location.pathname;
