import { IsString } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { StorableText } from '../../common/validation/storable-text.decorator';

/** SPEC 4.2 query. A repeated userId (an array) is invalid input. */
export class ListProjectsQuery {
  @Optional()
  @IsString(Messages.string())
  @StorableText()
  userId?: string;
}
