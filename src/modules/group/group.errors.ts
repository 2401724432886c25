import { fieldErrors } from '../../errors';

/** The group reads' messages (docs/ingestion.md §6). */
export const groupErrors = {
  typeIndexRequired: () =>
    fieldErrors.invalidInput(
      'You must pass ?group_type_index= in this URL. To get a list of valid group types, call /api/:project_id/groups_types/.',
      'group_type_index',
    ),
};
