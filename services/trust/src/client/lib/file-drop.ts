/**
 * @module client/lib/file-drop
 * One file chosen with a file input or dropped on a zone (marked `over` while a
 * file hovers), handed to `use`.
 */
export function onFile(input: HTMLInputElement, drop: HTMLElement, use: (file: File) => void): void {
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) use(file);
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) use(file);
  });
}
