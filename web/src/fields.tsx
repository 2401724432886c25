/** Form fields shared by the console's forms: a refusal sits at its field, named by `aria-describedby`. */

/** A message next to its field (`aria-describedby` points here). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

/** A labelled text input with its help and its refusal, both named by `aria-describedby`. */
export function TextField({
  id,
  label,
  value,
  onChange,
  problem,
  help,
  required,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string;
  help?: string;
  required?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={help ? `${id}-help ${id}-error` : `${id}-error`}
        required={required}
      />
      {help ? (
        <p id={`${id}-help`} className="help">
          {help}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={problem} />
    </div>
  );
}
