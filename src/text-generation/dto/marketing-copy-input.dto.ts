import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { WellFormedText } from '../../common/validation/storable-text.decorator';

/** A marketing-copy task's input: every field optional. Unknown fields are stripped. */
export class MarketingCopyInputDto {
  @ApiPropertyOptional({ maxLength: 50, example: 'friendly' })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(50, Messages.maxChars(50))
  @WellFormedText()
  tone?: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'small logistics firms' })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(200, Messages.maxChars(200))
  @WellFormedText()
  audience?: string;

  @ApiPropertyOptional({
    maxLength: 35,
    description: 'The language to write in (a BCP 47 tag or a name).',
    example: 'en',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(35, Messages.maxChars(35))
  @WellFormedText()
  language?: string;
}
