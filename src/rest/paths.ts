/** Path prefixes several modules' rows share (docs/rest-api.md's endpoint table). */
export const FLAGS = '/api/projects/:project_id/feature_flags';
export const FLAG = `${FLAGS}/:id`;
